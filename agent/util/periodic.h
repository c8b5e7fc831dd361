/*
 * periodic: a background thread of the agent's that calls one function every period until it is stopped
 * (the native code map refresher, the signal watch, the perf engine's watch). Stopping is prompt whatever
 * the period (the sleep is cut short, see stoppable_sleep.h; only a tick under way is waited for) and joins
 * the thread, so nothing it touches is used after periodic_stop returns. Not for signal handlers.
 */
#ifndef LIBPROF_PERIODIC_H
#define LIBPROF_PERIODIC_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "stoppable_sleep.h"

typedef struct {
    pthread_t thread;
    _Atomic bool running;
    stoppable_sleep sleep;
    long period_ns;
    void (*tick)(void);
} periodic;

/* Starts calling tick every period_ns (after the first period). 0 when started or already running, -1
 * when the thread cannot be created. */
int periodic_start(periodic *p, long period_ns, void (*tick)(void));

/* Stops and joins the thread; nothing when it is not running. */
void periodic_stop(periodic *p);

#endif
