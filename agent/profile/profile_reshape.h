/*
 * profile_reshape: jfrconv's flame graph shaping options applied to a whole profile, after it is read
 * (from JFR or collapsed text) and before any writer: --grain (coarsen: each stack's count rounded to a
 * multiple of the grain, stacks that round to none dropped), --classify (a category frame under the
 * thread frames, profile_classify.h) and --skip N (the N root-side frames of every stack left out, thread
 * and category frames included, as async-profiler's jfrconv counts them). Used by jfrconv and its tests.
 */
#ifndef LIBPROF_PROFILE_RESHAPE_H
#define LIBPROF_PROFILE_RESHAPE_H

#include "profile.h"

#include <stdbool.h>
#include <stdint.h>

/* The frame a stack of no more than --skip frames is left with: its samples stay in the profile. */
#define PROFILE_RESHAPE_ALL_SKIPPED "[all_frames_skipped]"

typedef struct {
    double grain;      /* samples per grain; 0: no coarsening */
    bool classify;
    int skip;
    bool reverse;      /* then written leaf first (jfrconv -r for formats other than the flame graph and tree) */
} profile_reshape_options;

/* Whether 'o' changes anything ('reverse' alone does not count: it only completes a reshaping). */
bool profile_reshape_wanted(const profile_reshape_options *o);

/* Builds 'out' (initialised here) from 'in': its meta, reshaped stacks and their weights. -1 when out of
 * memory ('out' is then freed). */
int profile_reshape(const profile *in, const profile_reshape_options *o, profile *out);

#endif
