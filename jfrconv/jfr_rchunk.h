/*
 * jfr_rchunk: one chunk of a JFR file: its header, its metadata (jfr_meta) and its constant pools, and
 * iteration over its events. A file is one or more chunks back to back; jfr_rchunk_open reads the chunk at
 * a given offset and says where the next one starts. Nothing is copied: the chunk reads the caller's
 * buffer (a mapped file), which must outlive it. Used by jfr_sample and the converter; no JVM dependency.
 */
#ifndef LIBPROF_JFR_RCHUNK_H
#define LIBPROF_JFR_RCHUNK_H

#include "jfr_cursor.h"
#include "jfr_meta.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define JFR_RHEADER_SIZE 68

typedef struct {
    uint64_t size, cp_offset, meta_offset;
    uint64_t start_nanos, duration_nanos, start_ticks, ticks_per_second;
    uint16_t major, minor;
} jfr_rheader;

typedef struct {
    const uint8_t *data;   /* the whole file */
    size_t start, end;     /* this chunk's bytes in the file */
    jfr_rheader header;
    jfr_meta meta;
    jfr_error *error;
    uint64_t budget;       /* decoding steps left: bounds the work corrupt nesting could cause */
    uint32_t string_type;  /* java.lang.String, for pooled strings; JFR_NO_TYPE if undeclared */
} jfr_rchunk;

typedef struct {
    uint64_t type_id;      /* as written: 0 metadata, 1 checkpoint, else a declared type */
    uint32_t type;         /* index into meta.types; JFR_NO_TYPE for types 0 and 1 */
    size_t start, end;     /* the whole event, size field included */
    size_t payload;        /* the first field (after size and type id) */
} jfr_revent;

/* True when the bytes at 'offset' begin a chunk that is not finished: its header is cut, says "being
 * written" (state byte not 0), or gives a size that runs past the end of the data. That is what a cut
 * file, or a recording still being written, ends with; the finished chunks before it are readable. */
bool jfr_rchunk_unfinished(const uint8_t *data, size_t size, size_t offset);

/* Reads only the header of the chunk at 'offset' (for a quick pass over time ranges). */
int jfr_rchunk_read_header(const uint8_t *data, size_t size, size_t offset, jfr_rheader *h, jfr_error *err);

/* Opens the chunk at 'offset': header, metadata, constant pools. -1 with 'err' set (the chunk must still
 * be closed). */
int jfr_rchunk_open(jfr_rchunk *ch, const uint8_t *data, size_t size, size_t offset, jfr_error *err);
void jfr_rchunk_close(jfr_rchunk *ch);

/* Event iteration: 'pos' starts at 0 (meaning the first event) and is advanced by each call. Returns 1
 * with *ev filled, 0 after the last event, -1 on error. The metadata and checkpoint events are returned
 * too (types 0 and 1 are not in meta.types, so their ev->type is JFR_NO_TYPE). */
int jfr_rchunk_next(jfr_rchunk *ch, size_t *pos, jfr_revent *ev);

/* Wall-clock nanoseconds since the epoch of a tick value of this chunk. */
uint64_t jfr_rchunk_ticks_to_ns(const jfr_rchunk *ch, uint64_t ticks);

/* The cursor for random access within the chunk (values in pools and events). */
static inline jfr_cursor jfr_rchunk_cursor(const jfr_rchunk *ch, size_t pos) {
    jfr_cursor c = {ch->data, pos, ch->end, ch->error};
    return c;
}

#endif
