/*
 * jfr_pools: the constant pools of one JFR chunk. While the chunk's events are written, the writer notes
 * which stored stacks and threads they refer to; at the chunk's end the pools are written for exactly
 * those (stack traces, methods, classes, packages, symbols, threads, frame types, thread states) and all
 * per-chunk state is freed, so memory is bounded by what one chunk refers to. Naming follows jfr_types.h.
 *
 * Keys: the JDK's parser takes a key it has already resolved in the previous chunk for the same value
 * (it skips the new one), so within one file a key must never change meaning; and tools group samples by
 * the resolved objects, so a method keeps its key in every chunk. A stack trace is keyed by its stored
 * trace id and the generation of its table (tables are reset between chunks, and a reset table starts a
 * new generation); threads by OS tid and chunk sequence number (a tid may be reused by a thread with
 * another name); symbols, classes, packages and methods by a registry kept for the whole recording (the
 * names of the methods and classes referred to so far), started afresh under new keys if it grows past
 * a bound.
 * Called only by the JFR writer (out_jfr), on one thread at a time; names Java methods through JVMTI.
 */
#ifndef LIBPROF_JFR_POOLS_H
#define LIBPROF_JFR_POOLS_H

#include "jfr_chunk.h"
#include "jfr_buf.h"
#include "profile.h"
#include "traces.h"
#include "u64map.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct {
    trace_table *tables[2];   /* by the table bit of a trace id (TRACE_STORE_TABLE_BIT) */
    uint32_t generation[2];   /* table 0 even, table 1 odd: never equal */
    bool lib;            /* the 'lib' option: native names carry their library */
    u64map traces;       /* trace id -> 1: stacks the chunk's events refer to */
    u64map threads;      /* OS tid -> 1 */
    u64map event_classes;/* class_names id -> 1: classes the chunk's allocation and lock events name */
    bool failed;         /* out of memory while noting: the chunk's pools would be incomplete */
    uint64_t chunk_seq;  /* 1 for the recording's first chunk */
    /* the recording's registry of stable keys */
    profile strings;     /* an interner: symbol key = prefix | (id + 1) */
    u64map java_keys;    /* jmethodID -> method key */
    uint64_t java_count;
    uint64_t prefix;     /* high bits of every registry key: changes when the registry starts afresh */
} jfr_pools;

void jfr_pools_init(jfr_pools *p, trace_table *table0, trace_table *table1, bool lib);
void jfr_pools_free(jfr_pools *p);

/* The key events of the current chunk use for thread 'tid': another in the next chunk (the JDK's reader
 * keeps what a key meant in the previous chunk, and a thread may be renamed meanwhile), and below 2^31,
 * since async-profiler's converter reads an event's thread as a 32-bit int. Linux thread ids are below
 * 2^22 (PID_MAX_LIMIT), which leaves 9 bits for the chunk. */
#define JFR_THREAD_KEY_TID_BITS 22
static inline uint64_t jfr_pools_thread_key(const jfr_pools *p, uint32_t tid) {
    return ((p->chunk_seq & 0x1ff) << JFR_THREAD_KEY_TID_BITS) | (tid & ((1u << JFR_THREAD_KEY_TID_BITS) - 1));
}

/* The key of a queued trace id (its table bit included). */
static inline uint64_t jfr_pools_trace_key(const jfr_pools *p, uint32_t trace_id) {
    return ((uint64_t)p->generation[trace_id >> 31] << 32) | (trace_id & 0x7fffffffu);
}

/* Table 'index' was reset: its ids mean other stacks from now on. */
static inline void jfr_pools_table_reset(jfr_pools *p, int index) {
    p->generation[index] += 2;
}

/* An event of this chunk refers to stack 'trace_id' (table bit included) and thread 'tid'. */
void jfr_pools_note(jfr_pools *p, uint32_t trace_id, uint32_t tid);

/* The key of class_names id 'class_id' as an event's class field (objectClass, monitorClass), noting that the
 * chunk refers to it. Keys of their own range: they never meet the registry's. */
uint64_t jfr_pools_event_class_key(jfr_pools *p, uint32_t class_id);

/* Appends the chunk's checkpoint event with every pool, then forgets the chunk's references and moves to
 * the next chunk's keys. -1 when out of memory. */
int jfr_pools_write(jfr_pools *p, jfr_buf *b, uint64_t ticks);

/* Ends a chunk of which 'written' bytes (from its start) are already in the file and the rest is in b:
 * appends the checkpoint with every pool (jfr_pools_write), then the metadata, and sets h->cp_offset and
 * h->meta_offset. -1 when out of memory. */
int jfr_pools_end_chunk(jfr_pools *p, jfr_buf *b, uint64_t ticks, uint64_t written, jfr_chunk_header *h);

#endif
