#include "timers.h"

#include "agent_threads.h"
#include "jvm.h"
#include "log.h"
#include "profiler_locked.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static pthread_cond_t cond;
static pthread_once_t cond_once = PTHREAD_ONCE_INIT;

static void init_cond(void) {
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&cond, &attr);
    pthread_condattr_destroy(&attr);
}

pthread_cond_t *timers_cond(void) {
    pthread_once(&cond_once, init_cond);
    return &cond;
}

/* Moves a CLOCK_MONOTONIC deadline 'ns' later. */
static void deadline_add(struct timespec *deadline, uint64_t ns) {
    ns += (uint64_t)deadline->tv_nsec;
    deadline->tv_sec += (time_t)(ns / 1000000000ULL);
    deadline->tv_nsec = (long)(ns % 1000000000ULL);
}

static void *timeout_thread(void *arg) {
    uint64_t my_session = (uint64_t)(uintptr_t)arg;
    pthread_mutex_t *lock = profiler_lock();
    pthread_mutex_lock(lock);
    uint64_t ns = profiler_timeout_ns_locked();
    struct timespec deadline;
    clock_gettime(CLOCK_MONOTONIC, &deadline);
    deadline_add(&deadline, ns);
    while (profiler_is_session_locked(my_session)) {
        if (pthread_cond_timedwait(timers_cond(), lock, &deadline) == ETIMEDOUT) break;
    }
    bool fire = profiler_session_alive_locked(my_session);
    pthread_mutex_unlock(lock);
    if (!fire) return NULL;
    /* Naming methods needs a thread the JVM knows (a process with no JVM has no methods to name). */
    if (jvm_vm() && !jvm_attach_current_thread()) {
        log_error("timeout: cannot attach to the JVM to dump the profile");
        return NULL;
    }
    pthread_mutex_lock(lock);
    if (profiler_session_alive_locked(my_session)) profiler_timeout_reached_locked();
    pthread_mutex_unlock(lock);
    jvm_detach_current_thread();
    return NULL;
}

/* At each period's end, on the schedule of the session's start, the profiler ends the period's profile as
 * a stop would and starts the next one, until the session is stopped or the VM dies. */
static void *loop_thread(void *arg) {
    uint64_t my_session = (uint64_t)(uintptr_t)arg;
    if (jvm_vm() && !jvm_attach_current_thread_named("libprof loop")) {
        log_error("loop: cannot attach to the JVM to write the profiles");
        return NULL;
    }
    pthread_mutex_t *lock = profiler_lock();
    pthread_mutex_lock(lock);
    struct timespec deadline;
    clock_gettime(CLOCK_MONOTONIC, &deadline);
    for (;;) {
        bool from_now;
        uint64_t period = profiler_loop_period_ns_locked(&from_now);
        if (from_now) clock_gettime(CLOCK_MONOTONIC, &deadline);
        deadline_add(&deadline, period);
        while (profiler_loop_goes_on_locked(my_session)) {
            if (pthread_cond_timedwait(timers_cond(), lock, &deadline) == ETIMEDOUT) break;
        }
        if (!profiler_loop_goes_on_locked(my_session)) break;
        my_session = profiler_loop_period_end_locked();
    }
    pthread_mutex_unlock(lock);
    jvm_detach_current_thread();
    return NULL;
}

static int start_detached(const char *name, void *(*run)(void *), uint64_t session_id) {
    pthread_t t;
    pthread_attr_t ta;
    pthread_attr_init(&ta);
    pthread_attr_setdetachstate(&ta, PTHREAD_CREATE_DETACHED);
    int rc = agent_thread_create(&t, &ta, name, run, (void *)(uintptr_t)session_id);
    pthread_attr_destroy(&ta);
    return rc;
}

int timers_start_timeout(uint64_t session_id, int timeout_s, char *err, size_t errlen) {
    int rc = start_detached("libprof timeout", timeout_thread, session_id);
    if (rc) snprintf(err, errlen, "timeout=%d: cannot start the timeout thread: %s", timeout_s, strerror(rc));
    return rc ? -1 : 0;
}

int timers_start_loop(uint64_t session_id, char *err, size_t errlen) {
    int rc = start_detached("libprof loop", loop_thread, session_id);
    if (rc) snprintf(err, errlen, "loop: cannot start the loop thread: %s", strerror(rc));
    return rc ? -1 : 0;
}
