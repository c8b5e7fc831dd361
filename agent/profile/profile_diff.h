/*
 * profile_diff: two profiles of the same program (before and after a change) compared stack by stack.
 * Each profile is normalised so that recordings of different length compare: per second of recording when
 * both durations are known (samples per second, or the weight's unit per second with 'total'), else as a
 * share of all samples (percent). Every stack of either profile is kept, so that stacks that disappeared
 * show as removed.
 */
#ifndef LIBPROF_PROFILE_DIFF_H
#define LIBPROF_PROFILE_DIFF_H

#include "profile.h"

typedef enum { DIFF_SAME, DIFF_ADDED, DIFF_GROWN, DIFF_SHRUNK, DIFF_REMOVED } diff_change;

typedef struct {
    profile stacks;       /* the union of both profiles' stacks (names of both); its counts mean nothing */
    double *base, *next;  /* normalised value of each stack in the base and in the new profile */
    bool per_second;      /* false: percent of all samples */
    char unit[32];        /* "samples/s", "ns/s", "% of samples"... */
    double base_total, next_total;
} profile_diff;

/* -1 when out of memory. */
int profile_diff_build(const profile *base, const profile *next, profile_diff *d);
void profile_diff_free(profile_diff *d);

diff_change profile_diff_change(double base, double next);
const char *profile_diff_change_name(diff_change c);

#endif
