/*
 * [signal-safe] trace_store: the session's call-trace storage as the signal path sees it. Stacks go into
 * one table; a JFR recording gives it a second one and the two take turns (trace_store_swap), so that a
 * crowded table is read for a closed chunk and reset while handlers fill the other. Each stored stack can
 * also be queued, with its time and thread, for the JFR writer thread (sample_ring).
 *
 * trace_store_put runs in signal handlers (signal/trace_store.c); configuring, swapping and looking the
 * tables up are outside them (trace_store_swap.c): the profiler configures, the JFR writer swaps.
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
} trace_store_result;

/* Queued records carry the index of their table in the top bit of their trace id. */
#define TRACE_STORE_TABLE_BIT 0x80000000u

/* Stores a stack (leaf first) of thread 'tid', worth 'weight', in the table in use, and queues its record.
 * Async-signal-safe: never allocates, locks or waits. */
trace_store_result trace_store_put(const trace_frame *frames, uint32_t depth, uint32_t tid, uint64_t weight);

/* What a queued record becomes besides a CPU sample (sample_ring.h's kinds and fields). */
typedef struct {
    uint32_t kind;        /* sample_record_kind */
    uint64_t address, value;
} trace_store_event;

/* trace_store_put that queues the record as 'event' (NULL: a CPU sample) and names the stored sample (0
 * when it was not stored), for trace_store_subtract. */
trace_store_result trace_store_put_id(const trace_frame *frames, uint32_t depth, uint32_t tid, uint64_t weight,
                                      const trace_store_event *event, uint32_t *stored_id);

/* Queues a record without a stack (a free) for the JFR writer; true when there is none or it took it. */
bool trace_store_queue_event(uint32_t tid, const trace_store_event *event);

/* Takes one sample worth 'weight' back from the stack trace_store_put_id named (a freed allocation, for
 * leak detection): false when that stack is no longer in the table in use. Async-signal-safe. */
bool trace_store_subtract(uint32_t stored_id, uint64_t weight);

/* Outside signal handlers (trace_store_swap.c). Configure while no handler can store. */
void trace_store_configure(const trace_store_config *c);
/* The table handlers store into now; NULL before the first configuration. */
trace_table *trace_store_current(void);
/* Makes the other table the one handlers store into and waits (bounded) until no handler still uses the
 * previous one, which may then be read and reset. Returns the new table's index (0: 'table', 1: 'spare'),
 * or -1 when a handler still held the previous table after timeout_ms (the swap is made, but the previous
 * table must not be reset). */
int trace_store_swap(int timeout_ms);

/* Shared by the two halves, nobody else. A handler announces itself in users[i] before it uses tables[i],
 * so a swap can wait until the previous table is unused. */
typedef struct {
    trace_store_config config;
    trace_table *tables[2];
    _Atomic uint32_t index;
    _Atomic int users[2];
} trace_store_state;
extern trace_store_state trace_store;

#endif
