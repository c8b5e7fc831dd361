#define _GNU_SOURCE
#include "profile.h"

#include <stdlib.h>
#include <string.h>

void profile_init(profile *p) {
    memset(p, 0, sizeof(*p));
    u64map_init(&p->name_index);
    u64map_init(&p->stack_index);
    strcpy(p->meta.units, "ns");
}

void profile_free(profile *p) {
    for (uint32_t i = 0; i < p->name_count; i++) free(p->names[i]);
    free(p->names);
    free(p->types);
    free(p->name_next);
    for (size_t i = 0; i < p->stack_count; i++) free(p->stacks[i].frames);
    free(p->stacks);
    free(p->stack_next);
    u64map_free(&p->name_index);
    u64map_free(&p->stack_index);
    memset(p, 0, sizeof(*p));
}

/* Grows an array of 'elem' bytes to hold at least need elements. */
static int reserve(void **array, size_t elem, size_t need, size_t *capacity) {
    if (need <= *capacity) return 0;
    size_t cap = *capacity ? *capacity * 2 : 256;
    while (cap < need) cap *= 2;
    void *grown = realloc(*array, cap * elem);
    if (!grown) return -1;
    *array = grown;
    *capacity = cap;
    return 0;
}

uint32_t profile_intern(profile *p, const char *name, frame_type type) {
    uint64_t h = u64map_hash_bytes(name, strlen(name));
    uint64_t head;
    uint32_t first = u64map_get(&p->name_index, h, &head) ? (uint32_t)(head - 1) : UINT32_MAX;
    for (uint32_t id = first; id != UINT32_MAX; id = p->name_next[id]) {
        if (strcmp(p->names[id], name) == 0) return id;
    }
    size_t cap = p->name_capacity, cap2 = p->name_capacity, cap3 = p->name_capacity;
    if (reserve((void **)&p->names, sizeof(char *), p->name_count + 1, &cap) ||
        reserve((void **)&p->types, 1, p->name_count + 1, &cap2) ||
        reserve((void **)&p->name_next, sizeof(uint32_t), p->name_count + 1, &cap3))
        return UINT32_MAX;
    p->name_capacity = (uint32_t)cap;
    uint32_t id = p->name_count;
    p->names[id] = strdup(name);
    if (!p->names[id]) return UINT32_MAX;
    p->types[id] = (uint8_t)type;
    p->name_next[id] = first;
    if (u64map_put(&p->name_index, h, (uint64_t)id + 1)) return UINT32_MAX;
    p->name_count++;
    return id;
}

int profile_add(profile *p, const uint32_t *frames, uint32_t depth, uint64_t samples, uint64_t weight) {
    uint64_t h = u64map_hash_bytes(frames, depth * sizeof(uint32_t)) ^ depth;
    if (h == 0) h = 1;
    uint64_t head;
    size_t first = u64map_get(&p->stack_index, h, &head) ? (size_t)(head - 1) : SIZE_MAX;
    p->total_samples += samples;
    p->total_weight += weight;
    for (size_t i = first; i != SIZE_MAX; i = p->stack_next[i]) {
        profile_stack *s = &p->stacks[i];
        if (s->depth == depth && memcmp(s->frames, frames, depth * sizeof(uint32_t)) == 0) {
            s->samples += samples;
            s->weight += weight;
            return 0;
        }
    }
    size_t cap = p->stack_capacity, cap2 = p->stack_capacity;
    if (reserve((void **)&p->stacks, sizeof(profile_stack), p->stack_count + 1, &cap) ||
        reserve((void **)&p->stack_next, sizeof(size_t), p->stack_count + 1, &cap2))
        return -1;
    p->stack_capacity = cap;
    profile_stack *s = &p->stacks[p->stack_count];
    s->frames = malloc((depth ? depth : 1) * sizeof(uint32_t));
    if (!s->frames) return -1;
    memcpy(s->frames, frames, depth * sizeof(uint32_t));
    s->depth = depth;
    s->samples = samples;
    s->weight = weight;
    p->stack_next[p->stack_count] = first;
    if (u64map_put(&p->stack_index, h, (uint64_t)p->stack_count + 1)) return -1;
    p->stack_count++;
    return 0;
}

static void add_count(profile_count *list, int *n, const char *name, uint64_t count) {
    if (count == 0 || *n >= PROFILE_MAX_COUNTS) return;
    list[(*n)++] = (profile_count){name, count};
}

void profile_add_drop(profile *p, const char *reason, uint64_t count) {
    add_count(p->meta.drops, &p->meta.drop_count, reason, count);
}

void profile_add_failure(profile *p, const char *marker, uint64_t count) {
    add_count(p->meta.failures, &p->meta.failure_count, marker, count);
}

void profile_add_stitched(profile *p, const char *reason, uint64_t count) {
    add_count(p->meta.stitched, &p->meta.stitched_count, reason, count);
}

static int by_value_desc(const void *a, const void *b, void *arg) {
    const profile *p = arg;
    size_t ia = *(const size_t *)a, ib = *(const size_t *)b;
    uint64_t va = profile_value(p, &p->stacks[ia]);
    uint64_t vb = profile_value(p, &p->stacks[ib]);
    if (va != vb) return va < vb ? 1 : -1;
    return ia < ib ? -1 : ia > ib;
}

size_t *profile_sorted_stacks(const profile *p) {
    size_t *order = malloc((p->stack_count ? p->stack_count : 1) * sizeof(size_t));
    if (!order) return NULL;
    for (size_t i = 0; i < p->stack_count; i++) order[i] = i;
    qsort_r(order, p->stack_count, sizeof(size_t), by_value_desc, (void *)p);
    return order;
}
