/*
 * [signal-safe] perf_ring: reading the records a perf event wrote into its mmap'd ring buffer. Pure functions of the
 * buffer bytes, so the parsing is unit-tested on synthetic buffers; the perf engine calls them from its
 * signal handler hook, hence async-signal-safe: no allocation, no locks, no system calls.
 */
#ifndef LIBPROF_PERF_RING_H
#define LIBPROF_PERF_RING_H

#include <stdbool.h>
#include <stdint.h>

/*
 * The kernel frames of the newest PERF_RECORD_SAMPLE between 'tail' and 'head' (the ring's running byte
 * positions) in 'data' (the ring's data area, 'size' bytes, a power of two; records may wrap around its
 * end). The record is expected to carry PERF_SAMPLE_CALLCHAIN as its only field. PERF_CONTEXT_* markers
 * are skipped, and user-space frames (after PERF_CONTEXT_USER) are not kernel frames: they end the copy.
 * Writes at most 'max' addresses to 'out', leaf first. Returns how many, or -1 when there is no sample
 * record or the records are malformed.
 */
int perf_ring_newest_kernel_frames(const uint8_t *data, uint64_t size, uint64_t tail, uint64_t head,
                                   uintptr_t *out, int max);

/*
 * True when a PERF_RECORD_SAMPLE or a PERF_RECORD_LOST (samples the ring had no room for) lies between
 * positions 'from' and 'to': a period of the event ended there, and raised its signal. Other records
 * (throttling) raise none. Malformed records count as a period ended.
 */
bool perf_ring_period_ended(const uint8_t *data, uint64_t size, uint64_t from, uint64_t to);

#endif
