/*
 * [signal-safe] sample_ring: a bounded, preallocated queue of sample records (when, which thread, which stored stack)
 * from the signal handlers to the one thread that writes them out (the JFR writer). Many producers, one
 * consumer, lock-free: a producer that finds the ring full gets false and counts the drop; the consumer
 * never waits for a producer (a record still being written ends this drain; the next drain takes it).
 *
 * sample_ring_push may be called from signal handlers; the rest only from ordinary threads, and
 * sample_ring_create / sample_ring_destroy only while no handler can use the ring.
 */
#ifndef LIBPROF_SAMPLE_RING_H
#define LIBPROF_SAMPLE_RING_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint64_t ticks;       /* CLOCK_MONOTONIC ns when the sample was taken */
    uint32_t tid;         /* OS thread id */
    uint32_t trace_id;    /* traces_put's id of the stored stack */
    uint64_t weight;      /* what this one sample stands for, in its event's units (ns, bytes...) */
    uint8_t event;        /* event_kind: which JFR event the writer makes of it */
    uint8_t state;        /* thread_state */
    uint64_t address;     /* nativemem: the block (trace_id 0: a free of it); nativelock: the lock */
    uint64_t size;        /* nativemem: the bytes asked for; lock: the ns waited (the weight may stand for more);
                             alloc: the object's bytes */
} sample_record;

typedef struct sample_ring sample_ring;

/* Shared by the two halves (sample_ring_create.c lays it out); nobody else looks inside. */
typedef struct {
    _Atomic uint64_t seq;
    sample_record rec;
} sample_ring_cell;

struct sample_ring {
    sample_ring_cell *cells;
    size_t mask;
    size_t bytes;
    _Atomic uint64_t tail;   /* next position to claim (producers) */
    uint64_t head;           /* next position to take (the consumer) */
};

/* Async-signal-safe. False when the ring is full. */
bool sample_ring_push(sample_ring *r, const sample_record *rec);

/* Consumer only: takes up to 'max' records in order into 'out'; returns how many. */
size_t sample_ring_drain(sample_ring *r, sample_record *out, size_t max);

#endif
