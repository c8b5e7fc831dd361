/*
 * timers: the session's clocks, timeout= and loop=, each a detached thread of the agent's that waits on the
 * monotonic clock for its deadline and then has the profiler act (profiler_locked.h). A stop, a new
 * session or the VM's death wakes them through timers_cond(); a thread whose session has ended returns.
 */
#ifndef LIBPROF_TIMERS_H
#define LIBPROF_TIMERS_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

/* The condition the timers wait on (CLOCK_MONOTONIC), with the profiler's lock; broadcast to wake them. */
pthread_cond_t *timers_cond(void);

/* Starts session 'session_id''s timeout thread. Returns -1 with a message in err. */
int timers_start_timeout(uint64_t session_id, int timeout_s, char *err, size_t errlen);

/* Starts session 'session_id''s loop thread. Returns -1 with a message in err. */
int timers_start_loop(uint64_t session_id, char *err, size_t errlen);

#endif
