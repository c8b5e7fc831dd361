/*
 * profile_classify: the category of a stack (jfrconv --classify), decided from its frames' names and
 * types alone, so that it works the same on the agent's stacks, on the JDK's recordings (Java frames only)
 * and on collapsed text. The categories carry async-profiler's jfrconv spellings ([gc], [jit], [vm],
 * [class_load], ...) plus [kernel] and [java] of our own; docs/jfrconv.md lists the rules (--classify).
 * Pure functions; used by profile_reshape.c and its tests.
 */
#ifndef LIBPROF_PROFILE_CLASSIFY_H
#define LIBPROF_PROFILE_CLASSIFY_H

#include "profile.h"

#include <stdbool.h>
#include <stdint.h>

/* The category frame ("[gc]") of a stack of p's name ids, root first. Root-side thread frames
 * (FTYPE_THREAD: [name tid=N], [STATE_...]) are not looked at. */
const char *profile_classify(const profile *p, const uint32_t *frames, uint32_t depth);

/* The same with each frame's own type ('types' parallel to 'frames'): a profile names a method once, with
 * the type it was first seen with, while the recording knows each frame's (interpreted here, compiled
 * there). jfrconv classifies JFR stacks so, as it reads them. */
const char *profile_classify_typed(const profile *p, const uint32_t *frames, const uint8_t *types, uint32_t depth);

/* Whether 'name' is one of the category frames above. */
bool profile_classify_is_category(const char *name);

#endif
