/*
 * calltree: merging is one hash lookup per frame, keyed by (parent, name), so a node with thousands of
 * children (a thread root, a dispatcher) costs no more than a chain. Children are kept as a singly linked
 * list because every reader walks all of them anyway.
 */
#include "calltree.h"

#include <stdlib.h>
#include <string.h>

static uint64_t child_key(uint32_t parent, uint32_t name) {
    return ((uint64_t)parent + 1) << 32 | name;   /* never 0, which u64map reserves */
}

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
        if (u64map_put(&t->child_index, child_key(parent, name), id)) return CALLTREE_NONE;
    }
    return id;
}

static uint32_t child_of(calltree *t, uint32_t parent, uint32_t name) {
    uint64_t id;
    if (u64map_get(&t->child_index, child_key(parent, name), &id)) return (uint32_t)id;
    return add_node(t, parent, name);
}

int calltree_build(calltree *t, const profile *p) {
    memset(t, 0, sizeof(*t));
    u64map_init(&t->child_index);
    if (add_node(t, CALLTREE_NONE, 0) == CALLTREE_NONE) goto oom;
    for (size_t i = 0; i < p->stack_count; i++) {
        const profile_stack *s = &p->stacks[i];
        uint64_t value = profile_value(p, s);
        if (value == 0) continue;
        uint32_t node = 0;
        t->nodes[0].total += value;
        for (uint32_t f = 0; f < s->depth; f++) {
            node = child_of(t, node, s->frames[f]);
            if (node == CALLTREE_NONE) goto oom;
            t->nodes[node].total += value;
        }
    }
    return 0;
oom:
    calltree_free(t);
    return -1;
}

void calltree_free(calltree *t) {
    free(t->nodes);
    u64map_free(&t->child_index);
    memset(t, 0, sizeof(*t));
}

uint64_t calltree_self(const calltree *t, uint32_t node) {
    uint64_t self = t->nodes[node].total;
    for (uint32_t c = t->nodes[node].first_child; c != CALLTREE_NONE; c = t->nodes[c].next_sibling)
        self -= t->nodes[c].total;
    return self;
}
