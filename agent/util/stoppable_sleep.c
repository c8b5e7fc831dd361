#include "stoppable_sleep.h"

#include <time.h>

int stoppable_sleep_init(stoppable_sleep *s) {
    pthread_condattr_t attr;
    if (pthread_condattr_init(&attr)) return -1;
    int rc = pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    if (!rc) rc = pthread_cond_init(&s->wake, &attr);
    pthread_condattr_destroy(&attr);
    if (rc) return -1;
    if (pthread_mutex_init(&s->lock, NULL)) {
        pthread_cond_destroy(&s->wake);
        return -1;
    }
    s->stopped = false;
    return 0;
}

void stoppable_sleep_destroy(stoppable_sleep *s) {
    pthread_cond_destroy(&s->wake);
    pthread_mutex_destroy(&s->lock);
}

bool stoppable_sleep_until(stoppable_sleep *s, uint64_t deadline_ns) {
    struct timespec at = {(time_t)(deadline_ns / 1000000000ULL), (long)(deadline_ns % 1000000000ULL)};
    pthread_mutex_lock(&s->lock);
    /* Spurious wake-ups go back to sleep; only the deadline or a stop ends the wait. */
    while (!s->stopped && pthread_cond_timedwait(&s->wake, &s->lock, &at) == 0) {}
    bool stopped = s->stopped;
    pthread_mutex_unlock(&s->lock);
    return stopped;
}

void stoppable_sleep_stop(stoppable_sleep *s) {
    pthread_mutex_lock(&s->lock);
    s->stopped = true;
    pthread_cond_broadcast(&s->wake);
    pthread_mutex_unlock(&s->lock);
}
