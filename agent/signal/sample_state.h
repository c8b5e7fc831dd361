/*
 * [signal-safe] sample_state: what the handler (signal/sample.c, signal/stack.c) reads and counts, and
 * the set-up half (sample_setup.c) prepares while no handler runs and reads for status. Nobody else.
 */
#ifndef LIBPROF_SAMPLE_STATE_H
#define LIBPROF_SAMPLE_STATE_H

#include "sample.h"

#include <stdatomic.h>

/* Stack buffers: concurrent handlers on different threads each claim one by atomic exchange. */
#define SAMPLE_BUFFER_COUNT 64

typedef struct {
    sample_config config;
    asgct_frame *asgct_buffers;
    trace_frame *frame_buffers;
    size_t buffers_bytes;
    _Atomic int buffer_busy[SAMPLE_BUFFER_COUNT];
    _Atomic bool active;
    _Atomic int in_flight;
    _Atomic uint32_t generation;   /* a new session restarts the per-thread CPU clocks */
    _Atomic uint64_t signals, stored, self_named;
    _Atomic uint64_t foreign;      /* profiling signals the engine did not send (kill, sigqueue...) */
    _Atomic uint64_t dropped[DROP_REASON_COUNT];
    _Atomic uint64_t markers[MARKER_COUNT];
    _Atomic uint64_t vm_fallbacks[VMWALK_REASON_COUNT];
} sample_state;
extern sample_state sampling;

/* Kernel frames, native frames, Java frames and up to two markers. */
static inline size_t sample_frames_per_buffer(int max_depth) {
    return (size_t)max_depth + SAMPLE_MAX_KERNEL_FRAMES + SAMPLE_MAX_NATIVE_FRAMES + 2;
}

#endif
