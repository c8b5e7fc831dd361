/*
 * jfr_span: the spans an application marked (async-profiler's profiler.Span events: when, how long, which
 * thread, a tag) as thread spans of the profile, named by their tag; and, per chunk, an index that finds
 * the span a sample of a thread was taken in (the innermost, when spans nest). Used by jfr_convert for the
 * formats that show spans (Firefox markers, pprof labels).
 */
#ifndef LIBPROF_JFR_SPAN_H
#define LIBPROF_JFR_SPAN_H

#include "jfr_rchunk.h"
#include "profile.h"

#include <stddef.h>
#include <stdint.h>

/* Adds the chunk's spans that overlap [from_ns, to_ns] to p->spans. Returns how many, or -1 on a malformed
 * event (the chunk's error set) or when out of memory. */
int jfr_span_read(jfr_rchunk *ch, profile *p, uint64_t from_ns, uint64_t to_ns);

typedef struct {
    size_t *order;   /* indexes into p->spans, by thread then start */
    size_t count;
} jfr_span_index;

/* An index over p->spans[first..]. -1 when out of memory. */
int jfr_span_index_build(jfr_span_index *ix, const profile *p, size_t first);
void jfr_span_index_free(jfr_span_index *ix);

/* The span (index into p->spans + 1) thread 'tid' was in at time_ns; 0 for none. */
uint32_t jfr_span_find(const jfr_span_index *ix, const profile *p, uint32_t tid, uint64_t time_ns);

#endif
