/*
 * jfr_metadata: the metadata event (type id 0) that declares every type, field and annotation the writer
 * uses (jfr_types.h), fields in the JDK's own order. Pure; called once per chunk by the JFR writer.
 */
#ifndef LIBPROF_JFR_METADATA_H
#define LIBPROF_JFR_METADATA_H

#include "jfr_buf.h"

#include <stdint.h>

/* Our metadata's id. The JDK's parser reuses a chunk's types for the next chunk when the next one's
 * metadata event carries the same id, and the JDK numbers its own metadata 1, 2, 3...: a recording that
 * holds its chunks beside ours (jfrsync) needs an id it never writes. */
#define JFR_METADATA_ID 0x4c50524f46ULL   /* "LPROF" */

/* Appends the whole metadata event. 'metadata_id' must change whenever the declared types change. */
void jfr_metadata_write(jfr_buf *b, uint64_t start_ticks, uint64_t metadata_id);

#endif
