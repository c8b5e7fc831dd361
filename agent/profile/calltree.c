/*
 * calltree: the stacks are visited in lexicographic order of their frames, so each one shares with the
 * previous exactly the path it has in common with every earlier stack: merging is a comparison with the
 * previous stack, and nodes are only ever added below the end of that shared prefix. No index of children
 * is needed (a hash index by (parent, name) cost more memory than the nodes themselves, and its rehashing
 * much of the time). Children are kept as a singly linked list because every reader walks all of them.
 */
#define _GNU_SOURCE
#include "calltree.h"

#include <stdlib.h>
#include <string.h>

static uint32_t add_node(calltree *t, uint32_t parent, uint32_t name) {
    if (t->count == t->capacity) {
        uint32_t cap = t->capacity ? t->capacity * 2 : 1024;
        calltree_node *grown = realloc(t->nodes, (size_t)cap * sizeof(*grown));
        if (!grown) return CALLTREE_NONE;
        t->nodes = grown;
        t->capacity = cap;
    }
    uint32_t id = t->count++;
    t->nodes[id] = (calltree_node){name, CALLTREE_NONE, CALLTREE_NONE, 0};
    if (parent != CALLTREE_NONE) {
        t->nodes[id].next_sibling = t->nodes[parent].first_child;
        t->nodes[parent].first_child = id;
    }
    return id;
}

/* Frames compared root first; a stack sorts before the longer stacks it is a prefix of. */
static int compare_stacks(const void *a, const void *b, void *arg) {
    const profile *p = arg;
    const profile_stack *x = &p->stacks[*(const uint32_t *)a], *y = &p->stacks[*(const uint32_t *)b];
    uint32_t n = x->depth < y->depth ? x->depth : y->depth;
    for (uint32_t i = 0; i < n; i++) {
        if (x->frames[i] != y->frames[i]) return x->frames[i] < y->frames[i] ? -1 : 1;
    }
    return x->depth < y->depth ? -1 : x->depth > y->depth;
}

static uint32_t shared_prefix(const profile_stack *a, const profile_stack *b) {
    uint32_t n = a->depth < b->depth ? a->depth : b->depth, i = 0;
    while (i < n && a->frames[i] == b->frames[i]) i++;
    return i;
}

int calltree_build(calltree *t, const profile *p) {
    memset(t, 0, sizeof(*t));
    uint32_t *order = malloc((p->stack_count ? p->stack_count : 1) * sizeof(uint32_t));
    uint32_t n = 0, max_depth = 0;
    for (size_t i = 0; order && i < p->stack_count; i++) {
        if (profile_value(p, &p->stacks[i]) == 0) continue;
        order[n++] = (uint32_t)i;
        if (p->stacks[i].depth > max_depth) max_depth = p->stacks[i].depth;
    }
    uint32_t *path = malloc(((size_t)max_depth + 1) * sizeof(uint32_t));   /* path[f]: the node of frame f */
    if (!order || !path || add_node(t, CALLTREE_NONE, 0) == CALLTREE_NONE) goto oom;
    qsort_r(order, n, sizeof(uint32_t), compare_stacks, (void *)p);
    const profile_stack *previous = NULL;
    for (uint32_t k = 0; k < n; k++) {
        const profile_stack *s = &p->stacks[order[k]];
        uint64_t value = profile_value(p, s);
        t->nodes[0].total += value;
        uint32_t shared = previous ? shared_prefix(previous, s) : 0;
        for (uint32_t f = 0; f < shared; f++) t->nodes[path[f]].total += value;
        for (uint32_t f = shared; f < s->depth; f++) {
            path[f] = add_node(t, f ? path[f - 1] : 0, s->frames[f]);
            if (path[f] == CALLTREE_NONE) goto oom;
            t->nodes[path[f]].total += value;
        }
        previous = s;
    }
    free(order);
    free(path);
    return 0;
oom:
    free(order);
    free(path);
    calltree_free(t);
    return -1;
}

void calltree_free(calltree *t) {
    free(t->nodes);
    memset(t, 0, sizeof(*t));
}

uint64_t calltree_self(const calltree *t, uint32_t node) {
    uint64_t self = t->nodes[node].total;
    for (uint32_t c = t->nodes[node].first_child; c != CALLTREE_NONE; c = t->nodes[c].next_sibling)
        self -= t->nodes[c].total;
    return self;
}
