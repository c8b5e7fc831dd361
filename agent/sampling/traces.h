/*
 * traces: lock-free call-trace storage. Stacks are keyed by a 64-bit hash of their frames (plus the thread
 * id when threads are kept apart, the event kind and the thread state); each distinct stack has a record,
 * in creation order, holding a sample count and a total weight, found through a fixed open-addressing index
 * and a small cache in front of it (signal/traces_table.h); frames live in one preallocated arena, packed in
 * one 64-bit word each (signal/trace_pack.h). Inserting never allocates, locks or waits: when the records
 * or the arena are full the sample is refused and the caller counts why.
 *
 * traces_put may be called from signal handlers (signal/traces_put.c); everything else (traces.c) only
 * from ordinary threads, and traces_reset only while no handler can run.
 */
#ifndef LIBPROF_TRACES_H
#define LIBPROF_TRACES_H

#include "frame.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct trace_table trace_table;

/* What a stack is stored under besides its frames: samples of different threads (with 'threads'), event
 * kinds (event_kind.h) or thread states (thread_state.h) are different stacks. */
typedef struct {
    uint32_t tid;     /* 0 when threads are not kept apart */
    uint8_t event;    /* event_kind */
    uint8_t state;    /* thread_state */
} trace_key;

typedef enum {
    TRACES_STORED = 0,
    TRACES_TABLE_FULL,   /* no record left for a new distinct stack */
    TRACES_FRAMES_FULL,  /* no room left in the frame arena */
} traces_result;

/* 'slots' (index words) is rounded up to a power of two, and 3/4 of it is how many distinct stacks the
 * table takes; stacks get ids 1, 2, ... in the order they arrive. The arena holds 'frame_capacity' frames
 * (a frame that does not pack takes three). Memory is reserved lazily (touched pages only). */
trace_table *traces_create(size_t slots, size_t frame_capacity);
void traces_destroy(trace_table *t);
void traces_reset(trace_table *t);

/* Frames leaf first, stored under thread 'tid' (event 0, cpu; state 0). Async-signal-safe. */
traces_result traces_put(trace_table *t, const trace_frame *frames, uint32_t depth, uint32_t tid,
                         uint64_t weight);

/* Stores under 'key' and gives the stored stack's id (> 0; may be NULL), stable for the table's life (until
 * reset). Async-signal-safe. */
traces_result traces_put_id(trace_table *t, const trace_frame *frames, uint32_t depth, const trace_key *key,
                            uint64_t weight, uint32_t *id);

/* One more sample of the stack stored under 'id', worth 'weight'. TRACES_TABLE_FULL when 'id' holds no
 * complete stack. Async-signal-safe. */
traces_result traces_add(trace_table *t, uint32_t id, uint64_t weight);

/* Takes one sample worth 'weight' back from the stack stored under 'id' (never below zero): false when
 * it has none left. Async-signal-safe. A stack left with no samples is not visited. */
bool traces_subtract(trace_table *t, uint32_t id, uint64_t weight);

/* Where stacks are read back into: the arena keeps frames packed (signal/trace_pack.h), so a reader gets
 * them decoded into a buffer of its own, grown as needed and reused across reads (zero-initialise; free with
 * traces_buffer_free). */
typedef struct {
    trace_frame *frames;
    uint32_t capacity;
} traces_buffer;
void traces_buffer_free(traces_buffer *buf);

/* The stack stored under 'id', decoded into buf (*frames points into it, valid until buf's next use): false
 * when the id is unknown, its frames are not (yet) complete, or buf cannot grow. */
bool traces_get(trace_table *t, uint32_t id, traces_buffer *buf, const trace_frame **frames, uint32_t *depth);
/* The key of the stack stored under 'id' (false as traces_get). */
bool traces_get_key(trace_table *t, uint32_t id, trace_key *key);

typedef void (*traces_visitor)(const trace_frame *frames, uint32_t depth, const trace_key *key, uint64_t samples,
                               uint64_t weight, void *arg);

/* Visits every stored stack (may run while samples are still being added); the frames a visitor gets are
 * valid during its call only. -1 when memory to decode a stack ran out (the visit stopped there). */
int traces_for_each(trace_table *t, traces_visitor visit, void *arg);

size_t traces_distinct(const trace_table *t);
/* How full the table is, 0..100: the larger of its records and its frame arena. */
int traces_fill_percent(const trace_table *t);
/* Samples that were counted into a record whose frames could not be stored: lost, report them as drops. */
uint64_t traces_orphaned_samples(trace_table *t);

/* Bytes reserved for the table (address space, mapped lazily) and bytes its stacks use, for the metrics. */
void traces_memory(const trace_table *t, uint64_t *reserved, uint64_t *used);

#endif
