/*
 * clock_ns: a clock's reading in nanoseconds, the unit every duration, deadline and event time of the
 * agent and the tools is counted in. Header-only and async-signal-safe (clock_gettime only): the signal
 * path uses it too, and it leaves no symbol for agent/signal/'s allow-list.
 */
#ifndef LIBPROF_CLOCK_NS_H
#define LIBPROF_CLOCK_NS_H

#include <stdint.h>
#include <time.h>

/* 'clock' now in ns, or 0 when it cannot be read (the CPU clock of a thread that has ended). */
static inline uint64_t clock_ns(clockid_t clock) {
    struct timespec ts;
    if (clock_gettime(clock, &ts) != 0) return 0;
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* CLOCK_MONOTONIC now in ns: durations and deadlines that a change of the wall clock must not move, and
 * the JFR writer's ticks. */
static inline uint64_t clock_mono_ns(void) {
    return clock_ns(CLOCK_MONOTONIC);
}

#endif
