/*
 * jfr_chunk: the frame of a JFR chunk: its 68-byte header (written at the start, completed at the end) and
 * the checkpoint event that carries the constant pools. Pure; used by the JFR writer and its tests.
 */
#ifndef LIBPROF_JFR_CHUNK_H
#define LIBPROF_JFR_CHUNK_H

#include "jfr_buf.h"

#include <stdbool.h>
#include <stdint.h>

#define JFR_HEADER_SIZE 68
#define JFR_TICKS_PER_SECOND 1000000000ULL   /* the writer's ticks are CLOCK_MONOTONIC nanoseconds */

typedef struct {
    uint64_t size;              /* whole chunk, header included */
    uint64_t cp_offset;         /* from the chunk start to its (last) checkpoint event */
    uint64_t meta_offset;       /* from the chunk start to its metadata event */
    uint64_t start_nanos;       /* wall clock, ns since the epoch, at the chunk's start */
    uint64_t duration_nanos;
    uint64_t start_ticks;       /* the event clock at the chunk's start */
    uint64_t ticks_per_second;
    bool finished;              /* false: "being written" (readers wait, then fail) */
} jfr_chunk_header;

/* Encodes version 2.0, compressed integers. */
void jfr_chunk_header_encode(const jfr_chunk_header *h, uint8_t out[JFR_HEADER_SIZE]);

/* A checkpoint event: begin writes its fixed fields and returns where it starts; pools follow (at least
 * one must be non-empty); end patches the pool count and the size. */
typedef struct {
    size_t at;          /* event start in the buffer */
    size_t count_at;    /* where the pool count is */
    uint32_t pools;
    size_t pool_at;     /* the open pool's start */
    size_t pool_count_at;
} jfr_checkpoint;

void jfr_chunk_checkpoint_begin(jfr_buf *b, jfr_checkpoint *c, uint64_t ticks);
/* Opens a pool of 'type_id'; its entries (key, then fields) are written by the caller. */
void jfr_chunk_pool_begin(jfr_buf *b, jfr_checkpoint *c, uint64_t type_id);
/* Closes the open pool with 'count' entries; a pool with none is removed (readers refuse empty pools). */
void jfr_chunk_pool_end(jfr_buf *b, jfr_checkpoint *c, uint64_t count);
void jfr_chunk_checkpoint_end(jfr_buf *b, jfr_checkpoint *c);

#endif
