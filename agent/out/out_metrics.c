#include "out_metrics.h"

#include <string.h>

/* One metric's header: its name, what it counts, its type. */
static void header(FILE *out, const char *name, const char *help, const char *type) {
    fprintf(out, "# HELP libprof_%s %s\n# TYPE libprof_%s %s\n", name, help, name, type);
}

static void single(FILE *out, const char *name, const char *help, const char *type, uint64_t value) {
    header(out, name, help, type);
    fprintf(out, "libprof_%s %llu\n", name, (unsigned long long)value);
}

/* A counter with one sample per reason or marker: our own identifiers, with no quote, backslash or newline
 * to escape in a label value. */
static void by_label(FILE *out, const char *name, const char *help, const char *label, const profile_count *counts,
                     int n) {
    header(out, name, help, "counter");
    for (int i = 0; i < n; i++)
        fprintf(out, "libprof_%s{%s=\"%s\"} %llu\n", name, label, counts[i].name, (unsigned long long)counts[i].count);
}

int out_metrics_write(const profile_meta *m, const out_metrics_extra *x, FILE *out) {
    single(out, "running", "1 while a profiling session runs", "gauge", x->running);
    fputs("# HELP libprof_info The session's engine and stack walking mode\n# TYPE libprof_info gauge\n", out);
    fprintf(out, "libprof_info{engine=\"%s\",cstack=\"%s\"} 1\n", m->engine, m->cstack);
    header(out, "duration_seconds", "Time profiled in the session", "gauge");
    fprintf(out, "libprof_duration_seconds %.3f\n", m->duration_ns / 1e9);
    single(out, "signals_total", "Profiling signals handled", "counter", m->signals);
    single(out, "samples_total", "Samples stored", "counter", x->samples);
    single(out, "foreign_signals_total", "Profiling signals not sent by the engine, ignored", "counter",
           x->foreign_signals);
    by_label(out, "dropped_samples_total", "Samples not stored, by reason", "reason", m->drops, m->drop_count);
    by_label(out, "walk_failures_total", "Samples stored as a failure marker frame, by marker", "marker", m->failures,
             m->failure_count);
    by_label(out, "stitched_walks_total", "cstack=vm: samples stitched instead of walked in one pass, by reason",
             "reason", m->stitched, m->stitched_count);
    single(out, "distinct_stacks", "Distinct call stacks stored", "gauge", x->distinct_stacks);
    single(out, "storage_reserved_bytes", "Address space reserved for call-trace storage (mapped on use)", "gauge",
           x->storage_reserved_bytes);
    single(out, "storage_used_bytes", "Call-trace storage the stored stacks use", "gauge", x->storage_used_bytes);
    /* The handler's cost: its median and 99th percentile are estimates from a sample of the samples (not a
     * Prometheus summary, which needs a sum we do not keep), hence gauges beside a counter. */
    static const char *const cost_names[] = {"sample_cost_median_seconds", "sample_cost_p99_seconds"};
    static const char *const cost_help[] = {"Median time the signal handler took per sample, by stack depth",
                                            "99th percentile of the time the signal handler took, by stack depth"};
    for (int q = 0; q < 2; q++) {
        header(out, cost_names[q], cost_help[q], "gauge");
        for (int d = 0; d < SAMPLE_COST_DEPTH_BUCKETS; d++) {
            const sample_cost_summary *c = &m->cost[d];
            if (c->count)
                fprintf(out, "libprof_%s{depth=\"%s\"} %.9f\n", cost_names[q], c->depths,
                        (q ? c->p99_ns : c->median_ns) / 1e9);
        }
    }
    header(out, "sample_cost_measured_total", "Samples whose handler time was measured, by stack depth", "counter");
    for (int d = 0; d < SAMPLE_COST_DEPTH_BUCKETS; d++) {
        const sample_cost_summary *c = &m->cost[d];
        if (c->count)
            fprintf(out, "libprof_sample_cost_measured_total{depth=\"%s\"} %llu\n", c->depths,
                    (unsigned long long)c->count);
    }
    return ferror(out) ? -1 : 0;
}

static uint64_t drops_named(const profile_meta *m, const char *const *names, int n) {
    uint64_t sum = 0;
    for (int i = 0; i < m->drop_count; i++)
        for (int k = 0; k < n; k++)
            if (!names || strcmp(m->drops[i].name, names[k]) == 0) {
                sum += m->drops[i].count;
                break;
            }
    return sum;
}

int out_metrics_write_asprof(const profile_meta *m, const out_metrics_extra *x, FILE *out) {
    static const char *const no_room[] = {"table_full", "frames_full"};
    fprintf(out, "mem_calltracestorage_kb %llu\n", (unsigned long long)((x->storage_used_bytes + 1023) / 1024));
    fprintf(out, "samples_total %llu\n", (unsigned long long)m->signals);
    fprintf(out, "samples_skipped_total %llu\n", (unsigned long long)drops_named(m, NULL, 1));
    fprintf(out, "calltracestorage_overflows_total %llu\n", (unsigned long long)drops_named(m, no_room, 2));
    double walk_ns = 0;
    uint64_t measured = 0;
    for (int d = 0; d < SAMPLE_COST_DEPTH_BUCKETS; d++) {
        walk_ns += (double)m->cost[d].median_ns * (double)m->cost[d].count;
        measured += m->cost[d].count;
    }
    if (m->stats && measured && walk_ns >= 1) {
        fprintf(out, "stackwalk_ns_total %.0f\n", walk_ns);
        fprintf(out, "stackwalk_ns_avg %.0f\n", walk_ns / (double)measured);
    }
    return ferror(out) ? -1 : 0;
}
