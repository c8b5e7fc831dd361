/*
 * [signal-safe] leak_table: the sampled allocations still alive, by address, for leak detection
 * (nativemem with 'leak'). The allocation hook adds an address with the stored stack it was counted under
 * and its weight; the free hook takes it out again and gives both back, so that the stack's count can be
 * reduced (trace_store_subtract). What is left when the profile is written was allocated and not freed.
 *
 * A fixed open-addressing table of preallocated entries, claimed by compare-and-swap: adding and removing
 * never allocate, lock or wait, from any thread, inside the allocator or a signal handler. When no entry
 * is free near an address the allocation is not tracked and counted ('full'). An address is in the table
 * at most once: the allocator cannot hand it out again before its free, and the free hook removes it
 * before the real free runs.
 *
 * leak_table_put/remove run in hooks (signal/leak_table.c); creating and clearing are outside them
 * (leak_table_create.h), clearing only while no hook can add.
 */
#ifndef LIBPROF_LEAK_TABLE_H
#define LIBPROF_LEAK_TABLE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    _Atomic uintptr_t address;   /* 0: never used; 1: removed; 2: being filled */
    uint64_t trace_ref;          /* trace_store_put's reference of the stack */
    uint64_t weight;
} leak_entry;

typedef struct {
    leak_entry *entries;
    size_t mask;
    _Atomic uint64_t tracked, full;
} leak_table;

/* Creating and clearing: agent/sampling/leak_table_create.h (outside hooks). */

/* Async-signal-safe. put: false when the table had no room near the address (counted). remove: false when
 * the address was not tracked; else its stack and weight. */
bool leak_table_put(leak_table *t, uintptr_t address, uint64_t trace_ref, uint64_t weight);
bool leak_table_remove(leak_table *t, uintptr_t address, uint64_t *trace_ref, uint64_t *weight);

#endif
