/*
 * profiler_locked: what the session's timers (timers.c) ask of the profiler: whether their session still
 * runs, their deadlines, and what a timeout or a loop period's end does. Everything but profiler_lock is
 * called with that lock held. Only for session/.
 */
#ifndef LIBPROF_PROFILER_LOCKED_H
#define LIBPROF_PROFILER_LOCKED_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

/* The session's lock: every action, and the timers between their waits. */
pthread_mutex_t *profiler_lock(void);

/* Session 'id' is the one running. */
bool profiler_is_session_locked(uint64_t id);
/* The same, and the VM is not dying: a timer may still act for it. */
bool profiler_session_alive_locked(uint64_t id);

/* timeout=: the time from now to the session's end. */
uint64_t profiler_timeout_ns_locked(void);
/* The timeout is reached: stops the session and writes its profile. */
void profiler_timeout_reached_locked(void);

/* loop=: the length of the next period; *from_now: counted from now (a time of day), else from the end of
 * the previous period. */
uint64_t profiler_loop_period_ns_locked(bool *from_now);
/* Session 'id' still has periods to come (running, or waiting for a period that could not start). */
bool profiler_loop_goes_on_locked(uint64_t id);
/* A period ended: its profile is written and the next one started. Returns the session id to follow. */
uint64_t profiler_loop_period_end_locked(void);

#endif
