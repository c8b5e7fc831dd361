/*
 * out_cpuprofile: Chrome DevTools' .cpuprofile (the DevTools protocol's Profiler.Profile): a node tree
 * (id, callFrame, hitCount, children), then samples (leaf node ids) and timeDeltas in microseconds, in
 * time order. The agent's profiles have no timestamps: the order is synthesised (profile_timeline.h). A
 * last sample on the root node closes the last real one, so that viewers which give sample i the time up
 * to sample i+1 count every real sample. "libprof" carries how complete the profile is.
 */
#ifndef LIBPROF_OUT_CPUPROFILE_H
#define LIBPROF_OUT_CPUPROFILE_H

#include "profile.h"

#include <stdio.h>

int out_cpuprofile_write(const profile *p, FILE *out);

#endif
