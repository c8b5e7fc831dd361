/*
 * jfr_latency: jfrconv --latency, async-profiler's filter: the intervals of the traced calls and spans
 * (jdk.MethodTrace, profiler.Span) that lasted at least a threshold, per thread, so that only the samples a
 * thread took inside one of its own slow calls are kept. Read from a file in a first pass, then asked once
 * per sample. Used by jfr_convert.
 */
#ifndef LIBPROF_JFR_LATENCY_H
#define LIBPROF_JFR_LATENCY_H

#include "jfr_cursor.h"
#include "jfr_rchunk.h"
#include "profile.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint64_t tid, from_ns, to_ns;   /* OS thread id; wall-clock ns since the epoch, both ends included */
} jfr_interval;

typedef struct jfr_latency {
    jfr_interval *v;   /* sorted by thread, then start; overlapping intervals of a thread merged */
    size_t n, cap;
    uint64_t events;   /* interval events seen, slow or not */
} jfr_latency;

/* Collects the intervals of at least min_ns, and shorter than below_ns unless that is 0, from every finished
 * chunk of the file. 0, or -1 with err set. */
int jfr_latency_collect(const uint8_t *data, size_t size, uint64_t min_ns, uint64_t below_ns, jfr_latency *out,
                        jfr_error *err);

/* True when thread 'tid' was inside one of its slow intervals at 'time_ns'. */
bool jfr_latency_contains(const jfr_latency *l, uint64_t tid, uint64_t time_ns);

void jfr_latency_free(jfr_latency *l);

/* The timeline formats: each traced call of the chunk (jdk.MethodTrace) that overlaps [from_ns, to_ns] as a
 * span of the profile, "slow call: Class.method 150.2 ms (thread)", which the Firefox format shows as an
 * interval marker beside the samples taken meanwhile. Returns how many, or -1 on error. */
int jfr_latency_call_spans(jfr_rchunk *ch, profile *p, uint64_t from_ns, uint64_t to_ns);

#endif
