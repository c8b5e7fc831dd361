/*
 * [signal-safe] sample_cost: what each sample costs, measured by the handler itself (monotonic clock around its work),
 * kept as a log-scale histogram per stack-depth bucket so status and the text report can give the median
 * and p99 without storing every figure. Recording is async-signal-safe.
 */
#ifndef LIBPROF_SAMPLE_COST_H
#define LIBPROF_SAMPLE_COST_H

#include <stdint.h>

#define SAMPLE_COST_DEPTH_BUCKETS 4

typedef struct {
    const char *depths;   /* "1-16", "17-64", ... */
    uint64_t count;
    uint64_t median_ns;
    uint64_t p99_ns;
} sample_cost_summary;

/* Its signal-safe half: clears the histogram; ticks_ns converts time-stamp ticks to ns from now on. */
void sample_cost_clear(double ticks_ns);
/* Async-signal-safe. 'ticks' is a difference of two sample_cost_now() readings. */
void sample_cost_record(uint32_t depth, uint64_t ticks);
/* Fills one summary per depth bucket (count 0 when no sample fell in it). */
void sample_cost_summarize(sample_cost_summary out[SAMPLE_COST_DEPTH_BUCKETS]);

/* A cheap monotonic clock in ticks (the CPU's time-stamp counter). */
uint64_t sample_cost_now(void);
uint64_t sample_cost_ticks_to_ns(uint64_t ticks);

#endif
