/*
 * jfr_pools: the constant pools of one JFR chunk. While the chunk's events are written, the writer notes
 * which stored stacks and threads they refer to; at the chunk's end the pools are written for exactly
 * those (stack traces, methods, classes, packages, symbols, threads, frame types, thread states) and all
 * per-chunk state is freed, so memory is bounded by what one chunk refers to. Naming follows jfr_types.h.
 *
 * Keys: the JDK's parser takes a key it has already resolved in the previous chunk for the same value
 * (it skips the new one), so within one file a key must never change meaning. Stack traces are keyed by
 * their stored trace id, which keeps its stack for the whole session; every other key carries the chunk's
 * sequence number in its high 32 bits.
 * Called only by the JFR writer (out_jfr), on one thread at a time; names Java methods through JVMTI.
 */
#ifndef LIBPROF_JFR_POOLS_H
#define LIBPROF_JFR_POOLS_H

#include "jfr_encode.h"
#include "traces.h"
#include "u64map.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct {
    trace_table *table;
    bool lib;            /* the 'lib' option: native names carry their library */
    u64map traces;       /* trace id -> 1: stacks the chunk's events refer to */
    u64map threads;      /* OS tid -> 1 */
    bool failed;         /* out of memory while noting: the chunk's pools would be incomplete */
    uint64_t chunk_seq;  /* 1 for the recording's first chunk */
} jfr_pools;

void jfr_pools_init(jfr_pools *p, trace_table *table, bool lib);
void jfr_pools_free(jfr_pools *p);

/* The key events of the current chunk use for thread 'tid'. */
static inline uint64_t jfr_pools_thread_key(const jfr_pools *p, uint32_t tid) {
    return (p->chunk_seq << 32) | tid;
}

/* An event of this chunk refers to stack 'trace_id' and thread 'tid'. */
void jfr_pools_note(jfr_pools *p, uint32_t trace_id, uint32_t tid);

/* Appends the chunk's checkpoint event with every pool, then forgets the chunk's references and moves to
 * the next chunk's keys. -1 when out of memory. */
int jfr_pools_write(jfr_pools *p, jfr_buf *b, uint64_t ticks);

#endif
