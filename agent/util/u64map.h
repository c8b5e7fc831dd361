/*
 * u64map: a growable open-addressing map from 64-bit keys to 64-bit values, for the dump path and for
 * bookkeeping outside signal handlers (it allocates). Key 0 is reserved.
 */
#ifndef LIBPROF_U64MAP_H
#define LIBPROF_U64MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint64_t *keys;
    uint64_t *values;
    size_t capacity;   /* power of two, or 0 */
    size_t count;
} u64map;

void u64map_init(u64map *m);
void u64map_free(u64map *m);
/* Returns true and sets *value when key is present. */
bool u64map_get(const u64map *m, uint64_t key, uint64_t *value);
/* Inserts or replaces. Returns -1 when out of memory. */
int u64map_put(u64map *m, uint64_t key, uint64_t value);
/* Removes key; true and *value (when value is not NULL) set when it was present. */
bool u64map_remove(u64map *m, uint64_t key, uint64_t *value);

/* A 64-bit hash of a byte string, never 0 (usable as a key). */
uint64_t u64map_hash_bytes(const void *data, size_t len);

#endif
