/*
 * perf_hooks_init: the set-up half of perf_hooks (signal/perf_hooks.c): reserves the descriptor table
 * once per process, and waits for handlers to leave the hooks. Outside signal handlers; called by
 * engine_perf.
 */
#include "perf_hooks.h"
#include "perf_hooks_init.h"

#include <stdatomic.h>

#include <stdbool.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static bool ready;

int perf_hooks_init(void) {
    if (ready) return 0;
    /* Pages are touched lazily: only as far as the highest descriptor used. */
    void *p = mmap(NULL, PERF_HOOKS_TABLE_MAX * sizeof(perf_thread *), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) return -1;
    perf_hooks_use(p, (size_t)sysconf(_SC_PAGESIZE));
    ready = true;
    return 0;
}

size_t perf_hooks_capacity(void) {
    return PERF_HOOKS_TABLE_MAX;
}

void perf_hooks_wait_idle(void) {
    /* The unpublishing stores must be visible before in_flight is read: without a full fence a store may still
     * sit in this CPU's buffer while a handler that entered meanwhile loads the old entry (store-load order). */
    atomic_thread_fence(memory_order_seq_cst);
    for (int i = 0; i < 100000 && perf_hooks_in_flight() > 0; i++) {
        struct timespec us = {0, 10000};
        nanosleep(&us, NULL);
    }
}
