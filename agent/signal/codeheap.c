/* [signal-safe] Runs in signal handlers: codeheap_contains; codeheap_init.c reads the bounds. */
#include "codeheap.h"

static uintptr_t low, high;

void codeheap_set_bounds(uintptr_t lo, uintptr_t hi) {
    low = lo;
    high = hi;
}

bool codeheap_contains(uintptr_t pc) {
    return pc >= low && pc < high;
}
