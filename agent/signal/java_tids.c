/* [signal-safe] Runs in signal handlers: java_tids_contains; java_tids_init.c allocates the bits. */
#include "java_tids.h"

#include <stdatomic.h>
#include <stdint.h>

static _Atomic uint64_t *bits;
static size_t bit_count;

void java_tids_use(_Atomic uint64_t *storage, size_t count) {
    bit_count = count;
    bits = storage;
}

void java_tids_add(int tid) {
    if (bits && tid > 0 && (size_t)tid < bit_count) atomic_fetch_or(&bits[tid / 64], 1ULL << (tid % 64));
}

void java_tids_remove(int tid) {
    if (bits && tid > 0 && (size_t)tid < bit_count) atomic_fetch_and(&bits[tid / 64], ~(1ULL << (tid % 64)));
}

bool java_tids_contains(int tid) {
    if (!bits || tid <= 0 || (size_t)tid >= bit_count) return false;
    return (atomic_load_explicit(&bits[tid / 64], memory_order_relaxed) >> (tid % 64)) & 1;
}
