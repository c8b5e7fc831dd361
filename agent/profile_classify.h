/*
 * profile_classify: the category of a stack (jfrconv --classify), decided from its frames' names and
 * types alone, so that it works the same on the agent's stacks, on the JDK's recordings (Java frames only)
 * and on collapsed text. The categories carry async-profiler's jfrconv spellings ([gc], [jit], [vm],
 * [class_load], ...) plus [kernel] and [java] of our own; README.md's "--classify" section lists the rules.
 * Pure functions; used by profile_reshape.c and its tests.
 */
#ifndef LIBPROF_PROFILE_CLASSIFY_H
#define LIBPROF_PROFILE_CLASSIFY_H

#include "profile.h"

#include <stdint.h>

/* The category frame ("[gc]") of a stack of p's name ids, root first. Root-side thread frames
 * (FTYPE_THREAD: [name tid=N], [STATE_...]) are not looked at. */
const char *profile_classify(const profile *p, const uint32_t *frames, uint32_t depth);

#endif
