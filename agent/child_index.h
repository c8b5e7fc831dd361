/*
 * child_index: the node of a (parent, name) pair in the trees the writers build from a profile's stacks
 * (Chrome's node tree, the diff's flame graph, Firefox's stack table), found in one hash lookup.
 */
#ifndef LIBPROF_CHILD_INDEX_H
#define LIBPROF_CHILD_INDEX_H

#include "u64map.h"

#include <stdbool.h>
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

#endif
