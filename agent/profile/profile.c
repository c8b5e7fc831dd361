#define _GNU_SOURCE
#include "profile.h"

#include "array_grow.h"

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
    for (size_t i = 0; i < p->stack_count; i++) {
        free(p->stacks[i].frames);
        free(p->stacks[i].lines);
    }
    for (uint32_t i = 0; p->sources && i < p->source_capacity; i++) free(p->sources[i].file);
    free(p->sources);
    free(p->ticks);
    for (size_t i = 0; i < p->span_count; i++) free(p->spans[i].name);
    free(p->spans);
    free(p->stacks);
    free(p->stack_next);
    u64map_free(&p->name_index);
    u64map_free(&p->stack_index);
    memset(p, 0, sizeof(*p));
}

uint32_t profile_intern(profile *p, const char *name, frame_type type) {
    uint64_t h = u64map_hash_bytes(name, strlen(name));
    uint64_t head;
    uint32_t first = u64map_get(&p->name_index, h, &head) ? (uint32_t)(head - 1) : UINT32_MAX;
    for (uint32_t id = first; id != UINT32_MAX; id = p->name_next[id]) {
        if (strcmp(p->names[id], name) == 0) return id;
    }
    size_t cap = p->name_capacity, cap2 = p->name_capacity, cap3 = p->name_capacity;
    if (array_grow((void **)&p->names, sizeof(char *), p->name_count + 1, &cap) ||
        array_grow((void **)&p->types, 1, p->name_count + 1, &cap2) ||
        array_grow((void **)&p->name_next, sizeof(uint32_t), p->name_count + 1, &cap3))
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

/* Lines equal, where NULL means "no lines" (unlike a stack whose lines are all unknown). */
static bool same_lines(const int32_t *a, const int32_t *b, uint32_t depth) {
    if (!a || !b) return a == b;
    return memcmp(a, b, depth * sizeof(int32_t)) == 0;
}

long profile_add_lines(profile *p, const uint32_t *frames, const int32_t *lines, uint32_t depth, uint64_t samples,
                       uint64_t weight) {
    uint64_t h = u64map_hash_bytes(frames, depth * sizeof(uint32_t)) ^ depth;
    if (lines) h ^= u64map_hash_bytes(lines, depth * sizeof(int32_t)) * 31;
    if (h == 0) h = 1;
    uint64_t head;
    size_t first = u64map_get(&p->stack_index, h, &head) ? (size_t)(head - 1) : SIZE_MAX;
    p->total_samples += samples;
    p->total_weight += weight;
    for (size_t i = first; i != SIZE_MAX; i = p->stack_next[i]) {
        profile_stack *s = &p->stacks[i];
        if (s->depth == depth && memcmp(s->frames, frames, depth * sizeof(uint32_t)) == 0 &&
            same_lines(s->lines, lines, depth)) {
            s->samples += samples;
            s->weight += weight;
            return (long)i;
        }
    }
    size_t cap = p->stack_capacity, cap2 = p->stack_capacity;
    if (array_grow((void **)&p->stacks, sizeof(profile_stack), p->stack_count + 1, &cap) ||
        array_grow((void **)&p->stack_next, sizeof(size_t), p->stack_count + 1, &cap2))
        return -1;
    p->stack_capacity = cap;
    profile_stack *s = &p->stacks[p->stack_count];
    memset(s, 0, sizeof(*s));
    s->frames = malloc((depth ? depth : 1) * sizeof(uint32_t));
    s->lines = lines ? malloc((depth ? depth : 1) * sizeof(int32_t)) : NULL;
    if (!s->frames || (lines && !s->lines)) {
        free(s->frames);
        free(s->lines);
        return -1;
    }
    memcpy(s->frames, frames, depth * sizeof(uint32_t));
    if (lines) memcpy(s->lines, lines, depth * sizeof(int32_t));
    s->depth = depth;
    s->samples = samples;
    s->weight = weight;
    p->stack_next[p->stack_count] = first;
    if (u64map_put(&p->stack_index, h, (uint64_t)p->stack_count + 1)) return -1;
    return (long)p->stack_count++;
}

int profile_add(profile *p, const uint32_t *frames, uint32_t depth, uint64_t samples, uint64_t weight) {
    return profile_add_lines(p, frames, NULL, depth, samples, weight) < 0 ? -1 : 0;
}

int profile_set_source(profile *p, uint32_t id, const char *file, int32_t start_line) {
    if (id >= p->source_capacity) {
        uint32_t cap = p->source_capacity ? p->source_capacity : 256;
        while (cap <= id) cap *= 2;
        profile_source *grown = realloc(p->sources, cap * sizeof(profile_source));
        if (!grown) return -1;
        memset(grown + p->source_capacity, 0, (cap - p->source_capacity) * sizeof(profile_source));
        p->sources = grown;
        p->source_capacity = cap;
    }
    char *copy = file && file[0] ? strdup(file) : NULL;
    if (file && file[0] && !copy) return -1;
    free(p->sources[id].file);
    p->sources[id] = (profile_source){copy, start_line};
    return 0;
}

profile_source profile_source_of(const profile *p, uint32_t id) {
    if (!p->sources || id >= p->source_capacity) return (profile_source){"", 0};
    profile_source s = p->sources[id];
    if (!s.file) s.file = "";
    return s;
}

bool profile_has_sources(const profile *p) {
    for (uint32_t i = 0; p->sources && i < p->source_capacity; i++)
        if (p->sources[i].file || p->sources[i].start_line) return true;
    for (size_t i = 0; i < p->stack_count; i++)
        if (p->stacks[i].lines) return true;
    return false;
}

int profile_add_tick(profile *p, uint32_t stack, uint64_t time_ns) {
    if (array_grow((void **)&p->ticks, sizeof(profile_tick), p->tick_count + 1, &p->tick_capacity)) return -1;
    p->ticks[p->tick_count++] = (profile_tick){time_ns, stack};
    return 0;
}

static int by_time(const void *a, const void *b) {
    const profile_tick *x = a, *y = b;
    if (x->time_ns != y->time_ns) return x->time_ns < y->time_ns ? -1 : 1;
    return x->stack < y->stack ? -1 : x->stack > y->stack;
}

void profile_drop_ticks(profile *p) {
    free(p->ticks);
    p->ticks = NULL;
    p->tick_count = p->tick_capacity = 0;
}

void profile_sort_ticks(profile *p) {
    /* Equal times are ordered by stack, so the order is the same on every run. */
    if (p->ticks) qsort(p->ticks, p->tick_count, sizeof(profile_tick), by_time);
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

int profile_add_span(profile *p, const char *name, uint64_t start_ns, uint64_t end_ns) {
    if (array_grow((void **)&p->spans, sizeof(profile_span), p->span_count + 1, &p->span_capacity)) return -1;
    char *copy = strdup(name);
    if (!copy) return -1;
    p->spans[p->span_count++] = (profile_span){copy, start_ns, end_ns < start_ns ? start_ns : end_ns, false};
    return 0;
}

int profile_add_call_span(profile *p, const char *name, uint64_t start_ns, uint64_t end_ns) {
    if (profile_add_span(p, name, start_ns, end_ns)) return -1;
    p->spans[p->span_count - 1].slow_call = true;
    return 0;
}
