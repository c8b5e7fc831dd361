/*
 * sample_cost_reset: the set-up half of sample_cost (signal/sample_cost.c): measures the time-stamp
 * counter against CLOCK_MONOTONIC over 5 ms (a sleep: never in a handler) and clears the histogram.
 * Called by the profiler when a session starts.
 */
#include "sample_cost.h"
#include "clock_ns.h"
#include "sample_cost_reset.h"

#include <stdint.h>
#include <time.h>

static double calibrate(void) {
    uint64_t t0 = clock_mono_ns(), c0 = __builtin_ia32_rdtsc();
    struct timespec pause = {0, 5000000};
    nanosleep(&pause, NULL);
    uint64_t t1 = clock_mono_ns(), c1 = __builtin_ia32_rdtsc();
    return c1 > c0 && t1 > t0 ? (double)(t1 - t0) / (double)(c1 - c0) : 1.0;
}

void sample_cost_reset(void) {
    sample_cost_clear(calibrate());
}
