/*
 * child_index: the node of a (parent, name) pair in the trees the writers build from a profile's stacks
 * (Chrome's node tree, the diff's flame graph, Firefox's stack table), found in one hash lookup; and
 * child_tree, such a tree with its nodes' child and sibling links and a per-node payload of the writer's
 * own (hit counts, base and new values), zeroed when a node is added.
 */
#ifndef LIBPROF_CHILD_INDEX_H
#define LIBPROF_CHILD_INDEX_H

#include "u64map.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CHILD_INDEX_NONE UINT32_MAX

/* The node registered for (parent, name), else registers 'fresh' for it and sets *added. parent may be
 * CHILD_INDEX_NONE (a root). Returns CHILD_INDEX_NONE when out of memory. */
static inline uint32_t child_index_get(u64map *m, uint32_t parent, uint32_t name, uint32_t fresh, bool *added) {
    uint64_t key = (((uint64_t)parent + 1) << 32 | name) + 1, found;   /* never 0, the map's reserved key */
    *added = false;
    if (u64map_get(m, key, &found)) return (uint32_t)found;
    if (u64map_put(m, key, fresh)) return CHILD_INDEX_NONE;
    *added = true;
    return fresh;
}

typedef struct {
    uint32_t name, first_child, next_sibling;   /* CHILD_INDEX_NONE: no child, no further sibling */
} child_node;

typedef struct {
    child_node *nodes;
    unsigned char *payload;    /* payload_size bytes per node */
    size_t payload_size;
    uint32_t count, capacity;
    u64map index;              /* child_index: (parent, name) -> node */
} child_tree;

void child_tree_init(child_tree *t, size_t payload_size);
void child_tree_free(child_tree *t);

/* The node of 'name' under 'parent' (CHILD_INDEX_NONE: a root), added as the parent's first child when
 * new. CHILD_INDEX_NONE when out of memory: the tree is then to be abandoned. */
uint32_t child_tree_child(child_tree *t, uint32_t parent, uint32_t name);

static inline void *child_tree_payload(const child_tree *t, uint32_t node) {
    return t->payload + (size_t)node * t->payload_size;
}

#endif
