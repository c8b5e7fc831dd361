#include "periodic.h"

#include <time.h>

static void *periodic_loop(void *arg) {
    periodic *p = arg;
    while (!atomic_load(&p->stop_requested)) {
        struct timespec period = {p->period_ns / 1000000000L, p->period_ns % 1000000000L};
        nanosleep(&period, NULL);
        if (!atomic_load(&p->stop_requested)) p->tick();
    }
    return NULL;
}

int periodic_start(periodic *p, long period_ns, void (*tick)(void)) {
    if (atomic_load(&p->running)) return 0;
    p->period_ns = period_ns;
    p->tick = tick;
    atomic_store(&p->stop_requested, false);
    if (pthread_create(&p->thread, NULL, periodic_loop, p) != 0) return -1;
    atomic_store(&p->running, true);
    return 0;
}

void periodic_stop(periodic *p) {
    if (!atomic_load(&p->running)) return;
    atomic_store(&p->stop_requested, true);
    pthread_join(p->thread, NULL);
    atomic_store(&p->running, false);
}
