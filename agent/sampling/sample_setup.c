/*
 * sample_setup: the half of sample (signal/sample.h) that runs outside signal handlers: the profiler
 * maps the stack buffers and sets the session's configuration while no handler is active, switches
 * sampling on and off, waits for handlers to leave, and reads the counters for status and reports.
 */
#include "sample.h"
#include "sample_setup.h"

#include "sample_cost.h"
#include "sample_cost_reset.h"
#include "sample_state.h"

#include <stdatomic.h>
#include <sys/mman.h>
#include <time.h>

int sample_configure(const sample_config *cfg) {
    size_t per_buffer = (size_t)cfg->max_depth * sizeof(asgct_frame) +
                        sample_frames_per_buffer(cfg->max_depth) * sizeof(trace_frame);
    size_t bytes = per_buffer * SAMPLE_BUFFER_COUNT;
    if (sampling.asgct_buffers && (sampling.config.max_depth != cfg->max_depth)) {
        munmap(sampling.asgct_buffers, sampling.buffers_bytes);
        sampling.asgct_buffers = NULL;
    }
    if (!sampling.asgct_buffers) {
        void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED) return -1;
        sampling.asgct_buffers = p;
        sampling.buffers_bytes = bytes;
    }
    sampling.frame_buffers = (trace_frame *)(sampling.asgct_buffers + (size_t)cfg->max_depth * SAMPLE_BUFFER_COUNT);
    sampling.config = *cfg;
    return 0;
}

/* What sample_take_counters cleared, so a reader that follows the rate across loop= periods sees one count. */
static _Atomic uint64_t signals_taken;

void sample_reset_counters(void) {
    atomic_store(&signals_taken, 0);
    atomic_fetch_add(&sampling.generation, 1);
    sample_cost_reset();
    atomic_store(&sampling.signals, 0);
    atomic_store(&sampling.stored, 0);
    for (int i = 0; i < DROP_REASON_COUNT; i++) atomic_store(&sampling.dropped[i], 0);
    for (int i = 0; i < MARKER_COUNT; i++) atomic_store(&sampling.markers[i], 0);
    for (int i = 0; i < VMWALK_REASON_COUNT; i++) atomic_store(&sampling.vm_fallbacks[i], 0);
    atomic_store(&sampling.self_named, 0);
    atomic_store(&sampling.foreign, 0);
}

void sample_set_active(bool on) {
    atomic_store(&sampling.active, on);
}

bool sample_wait_idle(int timeout_ms) {
    for (int waited = 0; atomic_load(&sampling.in_flight) > 0; waited++) {
        if (waited >= timeout_ms) return false;
        struct timespec ms = {0, 1000000};
        nanosleep(&ms, NULL);
    }
    return true;
}

static uint64_t read_counter(_Atomic uint64_t *c, bool clear) {
    return clear ? atomic_exchange(c, 0) : atomic_load(c);
}

static void read_counters(sample_counters *out, bool clear) {
    out->signals = read_counter(&sampling.signals, clear);
    out->stored = read_counter(&sampling.stored, clear);
    for (int i = 0; i < DROP_REASON_COUNT; i++) out->dropped[i] = read_counter(&sampling.dropped[i], clear);
    for (int i = 0; i < MARKER_COUNT; i++) out->markers[i] = read_counter(&sampling.markers[i], clear);
    for (int i = 0; i < VMWALK_REASON_COUNT; i++) out->vm_fallbacks[i] = read_counter(&sampling.vm_fallbacks[i], clear);
    out->vm_self_named = read_counter(&sampling.self_named, clear);
    out->foreign = read_counter(&sampling.foreign, clear);
}

void sample_get_counters(sample_counters *out) {
    read_counters(out, false);
}

void sample_take_counters(sample_counters *out) {
    read_counters(out, true);
    atomic_fetch_add(&signals_taken, out->signals);
}

uint64_t sample_signals_total(void) {
    return atomic_load(&signals_taken) + atomic_load(&sampling.signals);
}

const char *sample_drop_reason_name(drop_reason r) {
    static const char *const names[DROP_REASON_COUNT] = {"buffer_busy", "table_full", "frames_full",
                                                            "jfr_ring_full", "live_full",
                                                            "signal_lost", "outside_window", "rate_limited"};
    return (unsigned)r < DROP_REASON_COUNT ? names[r] : "?";
}
