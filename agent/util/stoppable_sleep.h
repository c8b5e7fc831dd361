/*
 * stoppable_sleep: how the agent's background threads wait (periodic's ticks, the wall engine's rounds):
 * a wait until a CLOCK_MONOTONIC deadline that the thread stopping them cuts short. A plain nanosleep of
 * one period made every stop (and so the JVM's exit) wait up to a whole period: seconds at interval=1s,
 * since the perf engine's watch sleeps four intervals. Not for signal handlers (a mutex and a condition).
 */
#ifndef LIBPROF_STOPPABLE_SLEEP_H
#define LIBPROF_STOPPABLE_SLEEP_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t wake; /* timed against CLOCK_MONOTONIC: a change of the wall clock neither cuts nor stretches */
    bool stopped;
} stoppable_sleep;

/* Ready to sleep, not stopped. 0, or -1 when the condition cannot be made. */
int stoppable_sleep_init(stoppable_sleep *s);
void stoppable_sleep_destroy(stoppable_sleep *s);

/* Sleeps until CLOCK_MONOTONIC (clock_mono_ns) reads deadline_ns or until stopped: true when stopped (at once when it
 * already was), false at the deadline. */
bool stoppable_sleep_until(stoppable_sleep *s, uint64_t deadline_ns);

/* Stops the sleep now and every later one, until stoppable_sleep_init again. */
void stoppable_sleep_stop(stoppable_sleep *s);

#endif
