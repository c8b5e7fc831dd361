#include "periodic.h"

#include "agent_threads.h"
#include "clock_ns.h"

static void *periodic_loop(void *arg) {
    periodic *p = arg;
    while (!stoppable_sleep_until(&p->sleep, clock_mono_ns() + (uint64_t)p->period_ns)) p->tick();
    return NULL;
}

int periodic_start(periodic *p, long period_ns, void (*tick)(void)) {
    if (atomic_load(&p->running)) return 0;
    p->period_ns = period_ns;
    p->tick = tick;
    if (stoppable_sleep_init(&p->sleep)) return -1;
    if (agent_thread_create(&p->thread, NULL, "libprof", periodic_loop, p) != 0) {
        stoppable_sleep_destroy(&p->sleep);
        return -1;
    }
    atomic_store(&p->running, true);
    return 0;
}

void periodic_stop(periodic *p) {
    if (!atomic_load(&p->running)) return;
    stoppable_sleep_stop(&p->sleep);
    pthread_join(p->thread, NULL);
    stoppable_sleep_destroy(&p->sleep);
    atomic_store(&p->running, false);
}
