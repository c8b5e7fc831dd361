/*
 * engine_ctimer: one POSIX timer per thread on that thread's own CPU-time clock, delivering the profiling
 * signal (SIGPROF unless the application owns it) to that very thread (SIGEV_THREAD_ID). Each thread is sampled in proportion to its own CPU time, without relying
 * on which thread happens to run when a process-wide timer fires. Threads existing at start are found in
 * /proc/self/task; the JVM reports later threads through thread_start / thread_end.
 */
#define _GNU_SOURCE
#include "engine.h"
#include "engine_signals.h"
#include "self_tid.h"

#include "log.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct {
    int tid;
    timer_t timer;
} thread_timer;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static thread_timer *timers;
static size_t timer_count, timer_capacity;
static bool running;
static uint64_t interval;

/* The kernel's encoding of a thread CPU clock: MAKE_THREAD_CPUCLOCK(tid, CPUCLOCK_SCHED). */
static clockid_t thread_cpu_clock(int tid) {
    return (clockid_t)((~(unsigned)tid) << 3) | 6;
}

static int create_timer(int tid, uint64_t period_ns, timer_t *out) {
    struct sigevent sev;
    memset(&sev, 0, sizeof(sev));
    sev.sigev_notify = SIGEV_THREAD_ID;
    sev.sigev_signo = engine_profiling_signal();
    sev._sigev_un._tid = tid;
    if (timer_create(thread_cpu_clock(tid), &sev, out) != 0) return -1;
    struct itimerspec its = {{(time_t)(period_ns / 1000000000ULL), (long)(period_ns % 1000000000ULL)},
                             {(time_t)(period_ns / 1000000000ULL), (long)(period_ns % 1000000000ULL)}};
    if (timer_settime(*out, 0, &its, NULL) != 0) {
        timer_delete(*out);
        return -1;
    }
    return 0;
}

/* Caller holds the lock. */
static void arm_thread(int tid) {
    for (size_t i = 0; i < timer_count; i++) {
        if (timers[i].tid == tid) return;
    }
    if (timer_count == timer_capacity) {
        size_t cap = timer_capacity ? timer_capacity * 2 : 256;
        thread_timer *grown = realloc(timers, cap * sizeof(*timers));
        if (!grown) return;
        timers = grown;
        timer_capacity = cap;
    }
    timer_t t;
    /* A thread that exited since we listed it has no clock any more: nothing to arm. */
    if (create_timer(tid, interval, &t) != 0) return;
    timers[timer_count++] = (thread_timer){tid, t};
}

static int ctimer_check(const prof_options *o, char *err, size_t errlen) {
    (void)o;
    timer_t t;
    if (create_timer(self_tid(), 1000000000ULL, &t) != 0) {
        snprintf(err, errlen, "timer_create on a thread CPU clock: %s", strerror(errno));
        return -1;
    }
    timer_delete(t);
    return 0;
}

static int ctimer_start(const prof_options *o, uint64_t interval_ns, char *err, size_t errlen) {
    (void)o;
    if (engine_install_handler(engine_profiling_signal()) != 0) {
        snprintf(err, errlen, "ctimer: cannot install the signal handler: %s", strerror(errno));
        return -1;
    }
    DIR *dir = opendir("/proc/self/task");
    if (!dir) {
        snprintf(err, errlen, "ctimer: cannot list /proc/self/task: %s", strerror(errno));
        return -1;
    }
    pthread_mutex_lock(&lock);
    interval = interval_ns;
    running = true;
    for (struct dirent *e; (e = readdir(dir)) != NULL;) {
        int tid = atoi(e->d_name);
        if (tid > 0) arm_thread(tid);
    }
    size_t armed = timer_count;
    pthread_mutex_unlock(&lock);
    closedir(dir);
    log_debug("ctimer: armed %zu threads", armed);
    return 0;
}

static void ctimer_stop(void) {
    pthread_mutex_lock(&lock);
    running = false;
    for (size_t i = 0; i < timer_count; i++) timer_delete(timers[i].timer);
    timer_count = 0;
    pthread_mutex_unlock(&lock);
}

static void ctimer_thread_start(int tid) {
    pthread_mutex_lock(&lock);
    if (running) arm_thread(tid);
    pthread_mutex_unlock(&lock);
}

static void ctimer_thread_end(int tid) {
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < timer_count; i++) {
        if (timers[i].tid != tid) continue;
        timer_delete(timers[i].timer);
        timers[i] = timers[--timer_count];
        break;
    }
    pthread_mutex_unlock(&lock);
}

/* A POSIX timer's signal is fixed at creation: every timer is created again (create_timer takes the new
 * engine_profiling_signal()). */
static int ctimer_move_signal(int signo) {
    (void)signo;
    size_t kept = 0;
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < timer_count; i++) {
        timer_delete(timers[i].timer);
        /* A thread that ended since it was armed has no clock any more: dropped. */
        if (create_timer(timers[i].tid, interval, &timers[kept].timer) == 0) timers[kept++].tid = timers[i].tid;
    }
    timer_count = kept;
    pthread_mutex_unlock(&lock);
    return 0;
}

/* A POSIX CPU timer says how many expiries its signal stands for (si_overrun), which costs nothing. */
static uint64_t ctimer_weight(const siginfo_t *info, uint64_t interval_ns) {
    if (!info || info->si_code != SI_TIMER) return 0;
    return interval_ns * (1 + (uint64_t)(info->si_overrun > 0 ? info->si_overrun : 0));
}

static const engine_signal_ops ctimer_signal = {
    .weight = ctimer_weight,
    .own_si_codes = {SI_TIMER, SI_TIMER},
    .move_signal = ctimer_move_signal,
};

const engine engine_ctimer = {
    .name = "ctimer",
    .units = ENGINE_UNITS_NS,
    .default_interval = 10000000ULL,
    .check = ctimer_check,
    .start = ctimer_start,
    .stop = ctimer_stop,
    .thread_start = ctimer_thread_start,
    .thread_end = ctimer_thread_end,
    .signal = &ctimer_signal,
};
