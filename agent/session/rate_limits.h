/*
 * rate_limits: a session's ratelimit= (rate_limit.h): the limits set when its engines start, refilled every
 * second by a background thread, off when it stops. Called by the profiler with its lock held.
 */
#ifndef LIBPROF_RATE_LIMITS_H
#define LIBPROF_RATE_LIMITS_H

#include "options.h"

#include <stddef.h>

/* Nothing without ratelimit=. -1 (err says why) when the value is bad or the thread cannot start. */
int rate_limits_start(const prof_options *o, char *err, size_t errlen);
void rate_limits_stop(void);

#endif
