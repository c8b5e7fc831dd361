/* [signal-safe] Runs in signal handlers: sample_cost_record, sample_cost_now; the calibration at reset is
 * sample_cost_reset.c. */
/*
 * sample_cost: 32 buckets per power of two (about 2% wide), from 1 ns to 2^27 ns (134 ms): the reported
 * median and p99 are each bucket's upper edge, so they err on the high side by at most one bucket: fine enough
 * to compare a median against a 3 us goal (eighths of an octave would put a 2.85 us median at 3.07 us).
 */
#include "sample_cost.h"

#include <stdatomic.h>

#define STEPS_PER_OCTAVE 32
#define OCTAVES 27
#define COST_BUCKETS (STEPS_PER_OCTAVE * OCTAVES)

static _Atomic uint64_t histogram[SAMPLE_COST_DEPTH_BUCKETS][COST_BUCKETS];
static const uint32_t depth_limits[SAMPLE_COST_DEPTH_BUCKETS] = {16, 64, 256, UINT32_MAX};
static const char *const depth_labels[SAMPLE_COST_DEPTH_BUCKETS] = {"1-16", "17-64", "65-256", ">256"};

/* The time-stamp counter: a few cycles to read, where clock_gettime may cost a system call (virtual
 * machines without a usable vDSO clock source). Converted to ns with a factor measured at reset
 * (sample_cost_reset.c). */
static double ns_per_tick = 1.0;

uint64_t sample_cost_now(void) {
    return __builtin_ia32_rdtsc();
}

uint64_t sample_cost_ticks_to_ns(uint64_t ticks) {
    return (uint64_t)((double)ticks * ns_per_tick);
}

/* The bucket's upper edge: 2^(b / STEPS) * (1 + (b % STEPS) / STEPS) style, computed exactly from b. */
static uint64_t bucket_edge(int b) {
    int octave = b / STEPS_PER_OCTAVE, step = b % STEPS_PER_OCTAVE;
    uint64_t base = 1ULL << octave;
    return base + (base * (uint64_t)(step + 1)) / STEPS_PER_OCTAVE;
}

static int bucket_of(uint64_t ns) {
    if (ns == 0) return 0;
    int octave = 63 - __builtin_clzll(ns);
    if (octave >= OCTAVES) return COST_BUCKETS - 1;
    uint64_t base = 1ULL << octave;
    int step = (int)(((ns - base) * STEPS_PER_OCTAVE) / base);
    return octave * STEPS_PER_OCTAVE + step;
}

void sample_cost_clear(double ticks_ns) {
    ns_per_tick = ticks_ns;
    for (int d = 0; d < SAMPLE_COST_DEPTH_BUCKETS; d++)
        for (int b = 0; b < COST_BUCKETS; b++) atomic_store(&histogram[d][b], 0);
}

void sample_cost_record(uint32_t depth, uint64_t ticks) {
    uint64_t ns = sample_cost_ticks_to_ns(ticks);
    int d = 0;
    while (depth > depth_limits[d]) d++;
    atomic_fetch_add_explicit(&histogram[d][bucket_of(ns)], 1, memory_order_relaxed);
}

/* The upper edge of the bucket holding the q-th fraction of the samples. */
static uint64_t quantile(const uint64_t *counts, uint64_t total, double q) {
    uint64_t want = (uint64_t)(q * (double)total), seen = 0;
    for (int b = 0; b < COST_BUCKETS; b++) {
        seen += counts[b];
        if (seen > want) return bucket_edge(b);
    }
    return bucket_edge(COST_BUCKETS - 1);
}

void sample_cost_summarize(sample_cost_summary out[SAMPLE_COST_DEPTH_BUCKETS]) {
    for (int d = 0; d < SAMPLE_COST_DEPTH_BUCKETS; d++) {
        uint64_t counts[COST_BUCKETS], total = 0;
        for (int b = 0; b < COST_BUCKETS; b++) total += counts[b] = atomic_load(&histogram[d][b]);
        out[d] = (sample_cost_summary){depth_labels[d], total, 0, 0};
        if (total) {
            out[d].median_ns = quantile(counts, total, 0.5);
            out[d].p99_ns = quantile(counts, total, 0.99);
        }
    }
}
