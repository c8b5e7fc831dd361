/*
 * monotonic: the two clock helpers every bounded wait in jprof uses. Deadlines are taken on the monotonic
 * clock because a wall-clock jump must neither cut a wait short nor make it endless.
 */
#ifndef JPROF_MONOTONIC_H
#define JPROF_MONOTONIC_H

#include "clock_ns.h"

#include <time.h>

static inline long long monotonic_ms(void) {
    return (long long)(clock_mono_ns() / 1000000);
}

static inline void monotonic_sleep_ms(int ms) {
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

#endif
