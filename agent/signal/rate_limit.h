/*
 * [signal-safe] rate_limit: async-profiler's ratelimit=: at most N events a second of a category (cpu,
 * wall, alloc, lock, nativemem, nativelock, trace: the event kinds; span: the API's spans), the excess
 * dropped and counted. Each category has a budget that a background tick refills every second to its
 * limit plus what was left of the last second, at most the limit again (bursts up to twice the limit).
 * rate_limit_allow runs in handlers and hooks: one atomic load when no limit is set, one atomic
 * decrement when one is. Set up and refilled outside handlers (session/rate_limits.c).
 */
#ifndef LIBPROF_RATE_LIMIT_H
#define LIBPROF_RATE_LIMIT_H

#include "event_kind.h"

#include <stdbool.h>
#include <stdint.h>

/* The categories: the event kinds, then spans. */
#define RATE_LIMIT_SPAN EVENT_KIND_COUNT
#define RATE_LIMIT_CATEGORIES (EVENT_KIND_COUNT + 1)

/* Whether one more event of 'category' fits this second's budget (true when it has no limit). */
bool rate_limit_allow(unsigned category);

/* Outside handlers. limits[c] < 0: no limit for c. Setting starts every budget full. */
void rate_limit_set(const int64_t limits[RATE_LIMIT_CATEGORIES]);
void rate_limit_off(void);
void rate_limit_refill(void);
/* Whether any limit is set. */
bool rate_limit_on(void);

#endif
