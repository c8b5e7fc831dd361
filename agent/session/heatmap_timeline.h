/*
 * heatmap_timeline: when the agent's own profile will be a heatmap page, the time of every sample. The
 * handlers queue a record per stored sample (sample_ring, as for a JFR recording); a thread of ours takes
 * them every 100 ms and counts them per stored stack and cell of OUT_HEATMAP_CELL_MS, so memory grows with
 * the distinct (cell, stack) pairs, not with the samples. At a dump the counts become the profile's ticks.
 * The session's one trace table must not be swapped meanwhile (no loop=, no JFR): its ids name the stacks.
 * Called by the profiler only, under its lock.
 */
#ifndef LIBPROF_HEATMAP_TIMELINE_H
#define LIBPROF_HEATMAP_TIMELINE_H

#include "named_profile.h"
#include "profile.h"
#include "sample_ring.h"

/* Starts counting (afresh, or going on with the counts so far when resuming: 'keep'); returns the queue
 * the handlers must fill, or NULL when out of memory or the thread cannot start. */
sample_ring *heatmap_timeline_start(bool keep);

/* Stops the thread after taking what is queued (the handlers have stopped); the counts stay for dumps. */
void heatmap_timeline_stop(void);

/* Builds the profile from 'table' (named_profile_build) with a tick per counted sample at its cell's time,
 * ns since the epoch, p->meta.start_unix_ns set to when counting began. -1 when out of memory. */
int heatmap_timeline_build(trace_table *table, const prof_options *o, event_kind event, profile *p);

/* Forgets the counts (a new session). */
void heatmap_timeline_reset(void);

#endif
