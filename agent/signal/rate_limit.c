/*
 * [signal-safe] rate_limit: see rate_limit.h. The budget may go below zero while it is spent (each refused
 * event decrements it too); the refill counts a negative remainder as nothing left.
 */
#include "rate_limit.h"

#include <stdatomic.h>

static struct {
    _Atomic int64_t budget;
    int64_t limit;
    char pad[48];   /* one cache line per category: handlers on many CPUs spend them at once */
} budgets[RATE_LIMIT_CATEGORIES];
static _Atomic unsigned limited;   /* bit c: category c has a limit */

bool rate_limit_allow(unsigned category) {
    if (category >= RATE_LIMIT_CATEGORIES ||
        !(atomic_load_explicit(&limited, memory_order_acquire) & (1u << category)))
        return true;
    return atomic_fetch_sub_explicit(&budgets[category].budget, 1, memory_order_relaxed) > 0;
}

void rate_limit_set(const int64_t limits[RATE_LIMIT_CATEGORIES]) {
    unsigned mask = 0;
    for (unsigned c = 0; c < RATE_LIMIT_CATEGORIES; c++) {
        if (limits[c] < 0) continue;
        budgets[c].limit = limits[c];
        atomic_store(&budgets[c].budget, limits[c]);
        mask |= 1u << c;
    }
    atomic_store_explicit(&limited, mask, memory_order_release);
}

void rate_limit_off(void) {
    atomic_store_explicit(&limited, 0, memory_order_release);
}

bool rate_limit_on(void) {
    return atomic_load(&limited) != 0;
}

void rate_limit_refill(void) {
    unsigned mask = atomic_load_explicit(&limited, memory_order_acquire);
    for (unsigned c = 0; c < RATE_LIMIT_CATEGORIES; c++) {
        if (!(mask & (1u << c))) continue;
        int64_t left = atomic_load(&budgets[c].budget);
        if (left < 0) left = 0;
        if (left > budgets[c].limit) left = budgets[c].limit;
        atomic_store(&budgets[c].budget, budgets[c].limit + left);
    }
}
