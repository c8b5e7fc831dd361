/* agent_threads (agent_threads.h): a small array of tids, each slot claimed and released with a
 * compare-and-swap; lookups read the slots without locking. */
#define _GNU_SOURCE
#include "agent_threads.h"

#include "self_tid.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <unistd.h>

#define AGENT_THREAD_SLOTS 32

static _Atomic uint32_t slots[AGENT_THREAD_SLOTS];

static void enter(const char *name) {
    if (name) prctl(PR_SET_NAME, name, 0, 0, 0);
    uint32_t tid = (uint32_t)self_tid();
    for (int i = 0; i < AGENT_THREAD_SLOTS; i++) {
        uint32_t free_slot = 0;
        if (atomic_compare_exchange_strong(&slots[i], &free_slot, tid)) return;
    }
}

static void leave(void) {
    uint32_t tid = (uint32_t)self_tid();
    for (int i = 0; i < AGENT_THREAD_SLOTS; i++) {
        uint32_t mine = tid;
        if (atomic_compare_exchange_strong(&slots[i], &mine, 0)) return;
    }
}

typedef struct {
    const char *name;
    void *(*fn)(void *);
    void *arg;
} start;

static void *run(void *p) {
    start s = *(start *)p;
    free(p);
    enter(s.name);
    void *result = s.fn(s.arg);
    leave();
    return result;
}

int agent_thread_create(pthread_t *thread, const pthread_attr_t *attr, const char *name, void *(*fn)(void *),
                        void *arg) {
    start *s = malloc(sizeof(*s));
    if (!s) return ENOMEM;
    *s = (start){name, fn, arg};
    int rc = pthread_create(thread, attr, run, s);
    if (rc) free(s);
    return rc;
}

bool agent_thread_is_ours(uint32_t tid) {
    for (int i = 0; i < AGENT_THREAD_SLOTS; i++) {
        if (atomic_load_explicit(&slots[i], memory_order_acquire) == tid) return true;
    }
    return false;
}
