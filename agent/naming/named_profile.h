/*
 * named_profile: turns the live trace table into the named profile the text, collapsed and HTML writers
 * read: every frame named by frame_names, a thread frame per thread with 'threads', include/exclude
 * applied, identical named stacks merged. Called by the profiler on a thread attached to the JVM.
 */
#ifndef LIBPROF_NAMED_PROFILE_H
#define LIBPROF_NAMED_PROFILE_H

#include "options.h"
#include "profile.h"
#include "traces.h"

/* Fills 'p' (initialised by the caller) with the stacks of one event kind (event_kind.h); the caller sets
 * p->meta. Returns -1 when out of memory. */
int named_profile_build(trace_table *table, const prof_options *o, event_kind event, profile *p);

/* The same, and where the stacks stored under ids[0..id_count) went: stacks[i] is the index in p->stacks
 * of ids[i]'s stack, -1 when it is not in the profile (another event, filtered, unknown). */
int named_profile_build_ids(trace_table *table, const prof_options *o, event_kind event, profile *p,
                            const uint32_t *ids, size_t id_count, long *stacks);

#endif
