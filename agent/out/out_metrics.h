/*
 * out_metrics: the `metrics` action: the session's counters in Prometheus' text exposition format
 * (version 0.0.4), for a monitoring system to scrape through the Java/C API or a file. Every metric has
 * its # HELP and # TYPE lines; names are prefixed libprof_ and reasons are label values, so a new drop
 * reason needs no new metric; async-profiler's unprefixed names are the other spelling
 * (out_metrics_write_asprof), for those who ask through its API. A pure function of its input: unit-tested, and read by promtool in the tests.
 */
#ifndef LIBPROF_OUT_METRICS_H
#define LIBPROF_OUT_METRICS_H

#include "profile.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct {
    bool running;
    uint64_t samples;          /* samples stored */
    uint64_t foreign_signals;  /* profiling signals not sent by the engine, ignored */
    uint64_t distinct_stacks;
    uint64_t storage_reserved_bytes;   /* address space reserved for call-trace storage */
    uint64_t storage_used_bytes;       /* of which the stored stacks use */
} out_metrics_extra;

/* Writes the metrics of 'm' (drops, failures, stitched walks, cost, signals) and 'x'. -1 on a write error. */
int out_metrics_write(const profile_meta *m, const out_metrics_extra *x, FILE *out);

/* The same counters under async-profiler's names, in its plain 'name value' lines (no # lines, no labels),
 * for what reads async-profiler's metrics: samples_total (samples taken, stored or not),
 * samples_skipped_total (not stored, any reason), calltracestorage_overflows_total (not stored for want of
 * room), mem_calltracestorage_kb; with m->stats stackwalk_ns_total and stackwalk_ns_avg, estimated from the
 * handler's measured cost (median per depth bucket times its samples). -1 on a write error. */
int out_metrics_write_asprof(const profile_meta *m, const out_metrics_extra *x, FILE *out);

#endif
