/*
 * [signal-safe] unwind_cache: the unwind row of a native pc, remembered so that the next step at the same
 * pc reads one small entry instead of the range set, the object, its table, its page index and its rows:
 * on a VM with shadow paging each of those pages, when not touched recently, costs microseconds, and a
 * sample's native frames are mostly the same few return addresses again and again.
 *
 * An entry is only returned for the range set it was found in: the key is the pc and the published
 * native_range_set (sets are never freed, so a pointer is never reused for another set). A refresh that
 * maps another object at the same address publishes another set: a miss, never another object's row.
 *
 * Fixed size (static, 32 KB), direct-mapped by pc; each slot is a sequence lock as in pc_cache.c: a writer
 * that finds it taken skips caching, a reader that finds it being written or changed under it misses.
 * No malloc, no locks, no system calls.
 */
#ifndef LIBPROF_UNWIND_CACHE_H
#define LIBPROF_UNWIND_CACHE_H

#include "dwarf.h"

#include <stdbool.h>
#include <stdint.h>

#define UNWIND_CACHE_SLOTS 1024

/* True and *out (all but pc_offset) filled when the cache holds pc for range set 'set'. */
bool unwind_cache_get(uintptr_t pc, const void *set, unwind_row *out);

/* Remembers row for pc in range set 'set', replacing what its slot held (skipped while another handler
 * writes the slot). */
void unwind_cache_put(uintptr_t pc, const void *set, const unwind_row *row);

/* The slot pc maps to (tests use it to make two pcs collide). */
unsigned unwind_cache_slot(uintptr_t pc);

/* Empties the cache. Not for handlers: tests. */
void unwind_cache_clear(void);

#endif
