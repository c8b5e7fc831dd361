/*
 * cycle_clock: the cheapest clock for timing short intervals on one thread: the CPU's time stamp counter on
 * x86-64 when it runs at a constant rate through sleep states (constant_tsc and nonstop_tsc), else
 * CLOCK_MONOTONIC. Why: latency tracing reads a clock twice per traced call; where clock_gettime is slow
 * (in some virtual machines it is a few hundred ns) that would be most of the call's cost. Ticks become ns
 * only for the intervals worth recording. Outside signal handlers.
 */
#ifndef LIBPROF_CYCLE_CLOCK_H
#define LIBPROF_CYCLE_CLOCK_H

#include "clock_ns.h"

#include <stdbool.h>
#include <stdint.h>

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

extern bool cycle_clock_tsc;          /* ticks are TSC cycles; else ns */
extern double cycle_clock_ns_per_tick;

/* Decides the clock and calibrates it (50 ms the first time). Idempotent. */
void cycle_clock_init(void);

static inline uint64_t cycle_clock_now(void) {
#if defined(__x86_64__)
    if (cycle_clock_tsc) return __rdtsc();
#endif
    return clock_mono_ns();
}

/* ns <-> ticks of the chosen clock. */
static inline uint64_t cycle_clock_to_ns(uint64_t ticks) {
    return cycle_clock_tsc ? (uint64_t)((double)ticks * cycle_clock_ns_per_tick) : ticks;
}
static inline uint64_t cycle_clock_from_ns(uint64_t ns) {
    return cycle_clock_tsc ? (uint64_t)((double)ns / cycle_clock_ns_per_tick) : ns;
}

#endif
