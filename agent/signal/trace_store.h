/*
 * [signal-safe] trace_store: the session's call-trace storage as the signal path sees it. Stacks go into
 * one table; a JFR recording, and a loop= session of any format, give it a second one and the two take
 * turns (trace_store_swap), so that a crowded table is read for a closed chunk or period and reset while
 * handlers fill the other. Each stored stack can
 * also be queued, with its time and thread, for the JFR writer thread (sample_ring).
 *
 * trace_store_put runs in signal handlers (signal/trace_store.c); configuring, swapping and looking the
 * tables up are outside them (trace_store_swap.c): the profiler configures, the JFR writer (chunks) and the
 * loop thread (periods) swap.
 */
#ifndef LIBPROF_TRACE_STORE_H
#define LIBPROF_TRACE_STORE_H

#include "sample_ring.h"
#include "traces.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct {
    trace_table *table;      /* where stacks go */
    trace_table *spare;      /* JFR: the table that takes turns with it, or NULL */
    sample_ring *ring;       /* JFR: every stored stack is also queued here; or NULL */
    bool per_thread;         /* stacks of different threads are different stacks (option 'threads') */
} trace_store_config;

typedef enum {
    TRACE_STORE_STORED = 0,
    TRACE_STORE_TABLE_FULL,   /* no slot left for a new distinct stack */
    TRACE_STORE_FRAMES_FULL,  /* no room left in the frame arena */
    TRACE_STORE_RING_FULL,    /* stored, but the record queue to the JFR writer is full */
    TRACE_STORE_STALE,        /* trace_store_repeat: the reference is no longer valid */
} trace_store_result;

/* Queued records carry the index of their table in the top bit of their trace id. */
#define TRACE_STORE_TABLE_BIT 0x80000000u

/* Stores a stack (leaf first) under 'key' (its thread, event kind and state; the thread is kept in the
 * table only with 'per_thread'), worth 'weight', in the table in use, and queues its record.
 * Async-signal-safe: never allocates, locks or waits. */
trace_store_result trace_store_put(const trace_frame *frames, uint32_t depth, const trace_key *key, uint64_t weight,
                                   uint64_t *ref);

/* ref (above; may be NULL): where the stack went, valid while its table is neither swapped out nor reset,
 * for trace_store_repeat; 0 when it was not stored. */
#define TRACE_STORE_NO_REF 0

/* Counts one more sample of the stack stored at 'ref' (by trace_store_put), under 'key' (its thread for the
 * JFR record, its event and state as stored), worth 'weight', and queues its record: a sample that is the
 * same as an earlier one without walking the stack again (the wall engine's idle threads).
 * TRACE_STORE_STALE when that stack's table has been swapped or reset since: take the sample anew.
 * Async-signal-safe. */
trace_store_result trace_store_repeat(uint64_t ref, const trace_key *key, uint64_t weight);

/* The address and size a native memory, lock or allocation record carries (sample_ring.h); a traced call's
 * record carries its end (event clock ticks) as the address and its duration (ns) as the size. */
typedef struct {
    uint64_t address, size;
} trace_store_native;

/* trace_store_put whose record also carries 'native' (nativemem, nativelock samples). */
trace_store_result trace_store_put_native(const trace_frame *frames, uint32_t depth, const trace_key *key,
                                          uint64_t weight, const trace_store_native *native, uint64_t *ref);

/* Queues a record without a stack (a free of 'address', under 'key') for the JFR writer; true when there is
 * no writer or it took it. */
bool trace_store_queue_free(const trace_key *key, uint64_t address);

/* Takes one sample worth 'weight' back from the stack stored at 'ref' (a freed allocation, for leak
 * detection): false when that stack's table was swapped or reset since. Async-signal-safe. */
bool trace_store_subtract(uint64_t ref, uint64_t weight);

/* Shared by the two halves, nobody else. A handler announces itself in users[i] before it uses tables[i],
 * so a swap can wait until the previous table is unused. */
typedef struct {
    trace_store_config config;
    trace_table *tables[2];
    _Atomic uint32_t index;
    _Atomic uint32_t epoch;   /* changes with every configuration and swap: references before it are stale */
    _Atomic int users[2];
} trace_store_state;
extern trace_store_state trace_store;

#endif
