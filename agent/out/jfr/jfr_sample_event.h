/*
 * jfr_sample_event: which JFR event each event kind's samples become (event_kind.h). One queued sample
 * record (sample_ring) in, one event out, its thread and stack already turned into pool keys by the
 * writer. Called by the JFR writer thread (out_jfr) only.
 *
 * To record a new kind: declare its event type in jfr_metadata.c (an id in jfr_types.h), write the event
 * in jfr_events.c, and add a case here. A kind without a case is not written and is counted
 * (out_jfr reports it): a session never silently loses samples.
 */
#ifndef LIBPROF_JFR_SAMPLE_EVENT_H
#define LIBPROF_JFR_SAMPLE_EVENT_H

#include "jfr_buf.h"
#include "sample_ring.h"

#include <stdbool.h>
#include <stdint.h>

/* Appends the event for 'rec' to b. False when its kind has no JFR event (nothing appended). */
/* Wall samples are profiler.WallClockSample events, or jdk.ExecutionSample ones with 'wall_as_execution'
 * (nobatch). */
bool jfr_sample_event_write(jfr_buf *b, const sample_record *rec, uint64_t thread_key, uint64_t trace_key,
                            bool wall_as_execution);

#endif
