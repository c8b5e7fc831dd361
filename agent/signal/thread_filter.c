/* [signal-safe] Runs in signal handlers: thread_filter_allows; thread_filter_init.c allocates the bits. */
#include "thread_filter.h"

static _Atomic uint64_t *bits;
static size_t bit_count;
static _Atomic bool enabled;

void thread_filter_use(_Atomic uint64_t *storage, size_t count) {
    bit_count = count;
    bits = storage;
}

void thread_filter_set(int tid, bool sampled) {
    if (!bits || tid <= 0 || (size_t)tid >= bit_count) return;
    if (sampled) atomic_fetch_or(&bits[tid / 64], 1ULL << (tid % 64));
    else atomic_fetch_and(&bits[tid / 64], ~(1ULL << (tid % 64)));
}

void thread_filter_enable(bool on) {
    atomic_store(&enabled, on);
}

bool thread_filter_allows(int tid) {
    if (!atomic_load_explicit(&enabled, memory_order_relaxed)) return true;
    if (!bits || tid <= 0 || (size_t)tid >= bit_count) return false;
    return (atomic_load_explicit(&bits[tid / 64], memory_order_relaxed) >> (tid % 64)) & 1;
}
