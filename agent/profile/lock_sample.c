/* lock_sample: async-profiler's sampling of contended waits by their accumulated time (lock_sample.h). */
#include "lock_sample.h"

#include <stdatomic.h>

static uint64_t interval;
static _Atomic uint64_t accumulated;   /* ns waited since the last recorded wait, below 'interval' */

void lock_sample_reset(uint64_t interval_ns) {
    interval = interval_ns;
    atomic_store(&accumulated, 0);
}

bool lock_sample_pick(uint64_t waited, uint64_t *weight) {
    if (!waited) waited = 1;
    *weight = waited;
    if (interval <= 1) return true;
    uint64_t prev = atomic_load_explicit(&accumulated, memory_order_relaxed), next;
    bool picked;
    do {
        next = prev + waited;
        picked = next >= interval;
        if (picked) next %= interval;
    } while (!atomic_compare_exchange_weak_explicit(&accumulated, &prev, next, memory_order_relaxed,
                                                    memory_order_relaxed));
    if (picked && waited < interval) *weight = interval;
    return picked;
}
