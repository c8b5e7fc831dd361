/*
 * [signal-safe] span_clock: per thread, the time of its last sample queued for the JFR writer, in a slot
 * the thread's Java code reads directly (a direct ByteBuffer over it): async-profiler's Span.endIfProfiled
 * and our dev.libprof.Span skip a span that had no sample without a native call. One fixed table, keyed by
 * OS thread id; a thread claims its slot outside handlers (span_clock_claim, sampling/span_clock_claim.c);
 * handlers only find and write it (span_clock_note).
 */
#ifndef LIBPROF_SPAN_CLOCK_H
#define LIBPROF_SPAN_CLOCK_H

#include <stdatomic.h>
#include <stdint.h>

#define SPAN_CLOCK_SLOTS 4096   /* a power of two */
#define SPAN_CLOCK_PROBES 16    /* slots looked at from a thread's hash */

typedef struct {
    _Atomic uint64_t ticks;     /* first: the Java side reads the slot's 8 bytes at offset 0 */
    _Atomic uint32_t tid;       /* 0: free */
    uint32_t pad;
} span_clock_slot;

extern span_clock_slot span_clock_slots[SPAN_CLOCK_SLOTS];

static inline uint32_t span_clock_hash(uint32_t tid) {
    return (tid * 2654435761u) & (SPAN_CLOCK_SLOTS - 1);
}

/* Async-signal-safe: thread 'tid' was sampled at 'ticks' (CLOCK_MONOTONIC ns); a thread without a slot is
 * left alone. */
void span_clock_note(uint32_t tid, uint64_t ticks);

#endif
