/*
 * event_clock: the clock of every JFR event time the agent records. CLOCK_MONOTONIC nanoseconds unless the
 * session chose the CPU's timestamp counter (clock=tsc, or jfrsync with a JVM whose Flight Recorder counts
 * in TSC ticks), so that our events and the JDK's in one recording are on one time line: each chunk's
 * header converts its ticks to wall time, and JMC lines chunks up by those. Read by the handlers (a load
 * and rdtsc or clock_gettime), set by the session before any engine starts.
 */
#ifndef LIBPROF_EVENT_CLOCK_H
#define LIBPROF_EVENT_CLOCK_H

#include "clock_ns.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct {
    bool tsc;               /* ticks are the timestamp counter minus 'offset', else CLOCK_MONOTONIC ns minus it */
    uint64_t offset;        /* aligns our ticks with the JVM's recorder's (0 when not asked) */
    uint64_t frequency;     /* ticks per second (1e9 for the monotonic clock) */
} event_clock_state;

extern event_clock_state event_clock;

#if defined(__x86_64__)
#define EVENT_CLOCK_HAS_TSC 1
static inline uint64_t event_clock_rdtsc(void) {
    uint32_t lo, hi;
    __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
    return ((uint64_t)hi << 32) | lo;
}
#else
#define EVENT_CLOCK_HAS_TSC 0
static inline uint64_t event_clock_rdtsc(void) {
    return 0;
}
#endif

/* Now, in the event clock's ticks. */
static inline uint64_t event_clock_now(void) {
    return (event_clock.tsc ? event_clock_rdtsc() : clock_mono_ns()) - event_clock.offset;
}

/* A duration in ns as the event clock's ticks (Timespan fields), and back. */
static inline uint64_t event_clock_ticks_of_ns(uint64_t ns) {
    if (!event_clock.tsc) return ns;
    return (uint64_t)((double)ns * (double)event_clock.frequency / 1e9);
}
static inline uint64_t event_clock_ns_of_ticks(uint64_t ticks) {
    if (!event_clock.tsc) return ticks;
    return (uint64_t)((double)ticks * 1e9 / (double)event_clock.frequency);
}

/* Sets the clock: the TSC (tsc) or CLOCK_MONOTONIC, counted from where the JVM's Flight Recorder counts its
 * ticks, 'jvm_ticks' being its reading at the moment of the call (0: the clock as it is). The JDK's
 * parser (JDK 22 on) converts every chunk of a file with the first chunk's tick base, so our chunks beside
 * the JDK's must count from its base. Only while no handler records. */
void event_clock_set(bool tsc, uint64_t jvm_ticks, uint64_t frequency);

#endif
