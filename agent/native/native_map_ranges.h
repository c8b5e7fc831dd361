/*
 * native_map_ranges: the published lookup array shared by native_map.c (which builds it) and
 * native_map_lookup.c (which searches it in signal handlers). Internal to native_map.
 */
#ifndef LIBPROF_NATIVE_MAP_RANGES_H
#define LIBPROF_NATIVE_MAP_RANGES_H

#include <stdatomic.h>

#include "native_map.h"

typedef struct {
    uintptr_t start, end;  /* [start, end) of one executable mapping */
    uint64_t offset;       /* file offset and inode, to recognise the same mapping at the next refresh */
    uint64_t inode;
    const native_object *object;
} native_range;

typedef struct native_range_set {
    struct native_range_set *retired;  /* the set this one replaced: kept, never freed (see native_map.c) */
    size_t count;
    native_range ranges[];  /* sorted by start, not overlapping */
} native_range_set;

extern _Atomic(native_range_set *) native_map_published;

#endif
