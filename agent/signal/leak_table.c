/*
 * [signal-safe] leak_table: adding and removing addresses (leak_table.h). An entry is claimed by moving
 * its address word from free (0 or 1) to "being filled", then filled, then published by a release store
 * of the address; a lookup probes past removed and busy entries and stops at a never-used one.
 */
#include "leak_table.h"

#define LEAK_EMPTY 0
#define LEAK_REMOVED 1
#define LEAK_FILLING 2
#define LEAK_MAX_PROBES 32

static size_t slot_of(const leak_table *t, uintptr_t address) {
    uint64_t x = (uint64_t)address >> 4;   /* allocations are 16-byte aligned */
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return (size_t)x & t->mask;
}

bool leak_table_put(leak_table *t, uintptr_t address, uint64_t trace_ref, uint64_t weight) {
    size_t i = slot_of(t, address);
    for (int probe = 0; probe < LEAK_MAX_PROBES; probe++, i = (i + 1) & t->mask) {
        leak_entry *e = &t->entries[i];
        uintptr_t cur = atomic_load_explicit(&e->address, memory_order_relaxed);
        if (cur > LEAK_REMOVED) continue;
        if (!atomic_compare_exchange_strong(&e->address, &cur, LEAK_FILLING)) continue;
        e->trace_ref = trace_ref;
        e->weight = weight;
        atomic_store_explicit(&e->address, address, memory_order_release);
        atomic_fetch_add_explicit(&t->tracked, 1, memory_order_relaxed);
        return true;
    }
    atomic_fetch_add_explicit(&t->full, 1, memory_order_relaxed);
    return false;
}

bool leak_table_remove(leak_table *t, uintptr_t address, uint64_t *trace_ref, uint64_t *weight) {
    size_t i = slot_of(t, address);
    for (int probe = 0; probe < LEAK_MAX_PROBES; probe++, i = (i + 1) & t->mask) {
        leak_entry *e = &t->entries[i];
        uintptr_t cur = atomic_load_explicit(&e->address, memory_order_acquire);
        if (cur == LEAK_EMPTY) return false;
        if (cur != address) continue;
        /* Read before releasing the entry: once removed, another allocation may claim and refill it. Only
         * the one free of this address can get here, so nobody else removes it meanwhile. */
        *trace_ref = e->trace_ref;
        *weight = e->weight;
        atomic_store_explicit(&e->address, LEAK_REMOVED, memory_order_release);
        atomic_fetch_sub_explicit(&t->tracked, 1, memory_order_relaxed);
        return true;
    }
    return false;
}
