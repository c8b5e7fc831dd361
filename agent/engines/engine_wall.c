/*
 * engine_wall: wall-clock sampling (event=wall, or wall[=INTERVAL] beside another event). Every interval a
 * timer thread of ours lists the process's threads (/proc/self/task) and samples each, whatever it is
 * doing, with its state (thread_state.h): it queues the profiling signal to the thread
 * (rt_tgsigqueueinfo: wall_signal.h says how the handler knows it is ours), and the handler walks the
 * whole stack as for CPU samples.
 *
 * The signal is a real-time one of its own (engine_queued_signal), not the profiling signal the CPU
 * engines use: standard signals do not queue, so a perf event's signal arriving while a wall signal is
 * pending on that thread would be merged into it and lost, and with it the one-shot event's re-arming
 * (the thread would get no more CPU samples). Real-time signals queue. Only when none is free does the
 * engine share the profiling signal (logged; merges are then possible, see engine_perf.c's re-arming).
 *
 * Scale: a JVM with thousands of threads that mostly wait must not pay for waking each of them every
 * interval. A thread whose CPU clock has not moved (by more than IDLE_CPU_NS, what the signal's own
 * delivery costs) since its last sample's handler finished is where that sample found it: its stack and
 * state are the same, so the timer thread counts that sample once more (trace_store_repeat) instead of
 * signalling it. Reading another thread's CPU clock is one system call, made here, never in a handler.
 * A thread is signalled again as soon as it runs, and when its previous sample's table has been swapped
 * out (JFR chunks) or the sample was dropped.
 *
 * filter=: only the listed thread ids are sampled (async-profiler's meaning, wall mode).
 */
#define _GNU_SOURCE
#include "agent_threads.h"
#include "clock_ns.h"
#include "engine.h"
#include "engine_signals.h"
#include "self_tid.h"

#include "log.h"
#include "sample.h"
#include "stoppable_sleep.h"
#include "thread_state.h"
#include "thread_state_init.h"
#include "trace_store.h"
#include "u64map.h"
#include "wall_signal.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* async-profiler's default for wall clock: five times its CPU default of 10 ms, as it samples every
 * thread, not only the running ones. */
#define WALL_DEFAULT_INTERVAL_NS 50000000ULL
#define WALL_MAX_THREADS 65536
/* CPU time a sleeping thread spends receiving our signal and going back to sleep, outside its handler:
 * a thread that used no more than this since its last sample did not run. */
#define IDLE_CPU_NS 50000ULL
/* Rounds a signal may stay pending before the thread is signalled again. */
#define PENDING_ROUNDS_MAX 100

static pthread_t timer;
static bool signal_all;         /* LIBPROF_TEST_WALL_SIGNAL_ALL (benchmark only): no repeats, every thread signalled */
static _Atomic bool stopping;
static stoppable_sleep between_rounds; /* the timer thread's wait between rounds */
static bool started;
static int tid_ranges;
static uint32_t tid_low[OPTIONS_MAX_TID_RANGES], tid_high[OPTIONS_MAX_TID_RANGES];
static u64map slot_by_tid;      /* tid -> slot index + 1 (timer thread only) */
static uint32_t *free_slots;    /* free slot indexes (a stack) */
static uint32_t free_count;
static uint32_t round_no;
static int queued_signo;        /* our own real-time signal; 0: none free, the profiling signal is shared */

typedef struct {
    uint64_t rounds, late_rounds, signalled, repeated, send_failed, no_slot, pending, given_up;
    uint64_t timer_cpu_ns;   /* the timer thread's own CPU time: what the rounds cost */
} wall_stats;
static wall_stats stats;

static bool tid_wanted(uint32_t tid) {
    if (!tid_ranges) return true;
    for (int i = 0; i < tid_ranges; i++)
        if (tid >= tid_low[i] && tid <= tid_high[i]) return true;
    return false;
}

static int wall_check(const prof_options *o, char *err, size_t errlen) {
    (void)o, (void)err, (void)errlen;
    return 0;
}

/* The slot of thread tid (claimed on first sight), or UINT32_MAX when every slot is taken. */
static uint32_t slot_for(uint32_t tid) {
    uint64_t v;
    if (u64map_get(&slot_by_tid, tid, &v)) return (uint32_t)(v - 1);
    if (!free_count) return UINT32_MAX;
    uint32_t i = free_slots[--free_count];
    wall_slot *s = &wall.slots[i];
    atomic_store(&s->ref, TRACE_STORE_NO_REF);
    s->sent = atomic_load(&s->answered);
    s->missed = 0;
    s->tid = tid;
    if (u64map_put(&slot_by_tid, tid, (uint64_t)i + 1)) {
        free_slots[free_count++] = i;
        return UINT32_MAX;
    }
    return i;
}

static bool send_signal(uint32_t tid, uint32_t slot) {
    siginfo_t si;
    memset(&si, 0, sizeof(si));
    int signo = queued_signo ? queued_signo : engine_profiling_signal();
    si.si_signo = signo;
    si.si_code = SI_QUEUE;
    si.si_pid = wall.pid;
    si.si_uid = getuid();
    si.si_value.sival_ptr = (void *)(uintptr_t)(((uint64_t)atomic_load(&wall.cookie) << 32) | slot);
    if (syscall(SYS_rt_tgsigqueueinfo, wall.pid, (pid_t)tid, signo, &si) == 0) {
        stats.signalled++;
        return true;
    }
    if (errno != ESRCH) stats.send_failed++;   /* ESRCH: it ended since the listing */
    return false;
}

/* Counts the last sample once more for each round that passed while its signal was pending. */
static void repeat_missed(wall_slot *s, uint32_t tid, uint64_t ref) {
    trace_key key = {tid, EVENT_WALL, (uint8_t)atomic_load(&s->state)};
    for (; s->missed; s->missed--) {
        trace_store_result r = trace_store_repeat(ref, &key, wall.interval_ns);
        if (r == TRACE_STORE_STALE) break;
        sample_count_repeat(r);
        stats.repeated++;
    }
    s->missed = 0;
}

/* Samples one thread: repeats its last sample when it has not run since, else signals it. */
static void sample_thread(uint32_t tid) {
    uint32_t i = slot_for(tid);
    if (i == UINT32_MAX) {
        stats.no_slot++;
        send_signal(tid, UINT32_MAX);   /* sampled anyway; its sample cannot be repeated */
        return;
    }
    wall_slot *s = &wall.slots[i];
    s->seen = round_no;
    /* answered behind sent (a queued signal given up on may still come, and be answered twice). */
    if ((int32_t)(atomic_load_explicit(&s->answered, memory_order_acquire) - s->sent) < 0) {
        /* The last signal has not been taken yet (a waiting thread may take long to be scheduled under
         * load): a second one would merge with it and its round be lost. This round is counted with that
         * sample when it comes; a thread that never takes it (blocking the signal) is signalled again. */
        stats.pending++;
        if (++s->missed < PENDING_ROUNDS_MAX) return;
        stats.given_up++;
        s->missed = 0;
        s->sent = atomic_load(&s->answered);
    }
    uint64_t ref = atomic_load_explicit(&s->ref, memory_order_relaxed);
    if (s->missed) repeat_missed(s, tid, ref);
    if (ref != TRACE_STORE_NO_REF && !signal_all) {
        uint64_t cpu = engine_thread_cpu_ns((int)tid), after = atomic_load_explicit(&s->cpu_after_ns, memory_order_relaxed);
        int state = (int)atomic_load(&s->state);
        /* A thread sampled while running that used any CPU since may have gone to wait right after: only a
         * thread sampled waiting is allowed what our signal's delivery costs it. */
        uint64_t allowed = state == THREAD_STATE_RUNNABLE || state == THREAD_STATE_NATIVE ? 0 : IDLE_CPU_NS;
        /* cpu < after: not the thread sampled (its id was reused by a new thread since). */
        if (cpu && after && cpu >= after && cpu <= after + allowed) {
            trace_key key = {tid, EVENT_WALL, (uint8_t)state};
            trace_store_result r = trace_store_repeat(ref, &key, wall.interval_ns);
            if (r != TRACE_STORE_STALE) {
                sample_count_repeat(r);
                stats.repeated++;
                return;
            }
        }
    }
    if (send_signal(tid, i)) s->sent++;
}

/* Frees the slots of threads that were not listed this round: they have ended. */
static void forget_ended(void) {
    for (uint32_t i = 0; i < wall.capacity; i++) {
        wall_slot *s = &wall.slots[i];
        if (!s->tid || s->seen == round_no) continue;
        uint64_t unused;
        u64map_remove(&slot_by_tid, s->tid, &unused);
        s->tid = 0;
        atomic_store(&s->ref, TRACE_STORE_NO_REF);
        free_slots[free_count++] = i;
    }
}

static void sample_round(uint32_t self) {
    DIR *d = opendir("/proc/self/task");
    if (!d) return;
    round_no++;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        char *end;
        unsigned long tid = strtoul(e->d_name, &end, 10);
        if (*end || tid == 0 || tid == self || !tid_wanted((uint32_t)tid) || agent_thread_is_ours((uint32_t)tid))
            continue;
        sample_thread((uint32_t)tid);
    }
    closedir(d);
    forget_ended();
    stats.rounds++;
}

static void *timer_main(void *arg) {
    (void)arg;
    uint32_t self = (uint32_t)self_tid();
    uint64_t next = clock_mono_ns();
    for (;;) {
        sample_round(self);
        next += wall.interval_ns;
        uint64_t now = clock_mono_ns();
        if (now > next) {
            /* A round took longer than the interval: start the next now rather than catch up in a burst. */
            stats.late_rounds++;
            next = now;
            if (atomic_load(&stopping)) break;
            continue;
        }
        /* Cut short by wall_stop: with interval=5s, stopping must not wait for the next round. */
        if (stoppable_sleep_until(&between_rounds, next)) break;
    }
    stats.timer_cpu_ns = clock_ns(CLOCK_THREAD_CPUTIME_ID);
    return NULL;
}

static int prepare_slots(char *err, size_t errlen) {
    if (!wall.slots) {
        void *p = mmap(NULL, WALL_MAX_THREADS * sizeof(wall_slot), PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        free_slots = malloc(WALL_MAX_THREADS * sizeof(uint32_t));
        if (p == MAP_FAILED || !free_slots) {
            if (p != MAP_FAILED) munmap(p, WALL_MAX_THREADS * sizeof(wall_slot));
            free(free_slots);
            free_slots = NULL;
            snprintf(err, errlen, "wall: cannot reserve memory for %d threads", WALL_MAX_THREADS);
            return -1;
        }
        wall.slots = p;
        wall.capacity = WALL_MAX_THREADS;
    }
    memset(wall.slots, 0, WALL_MAX_THREADS * sizeof(wall_slot));
    free_count = 0;
    for (uint32_t i = WALL_MAX_THREADS; i-- > 0;) free_slots[free_count++] = i;
    u64map_free(&slot_by_tid);
    u64map_init(&slot_by_tid);
    return 0;
}

static int wall_start(const prof_options *o, uint64_t interval_ns, char *err, size_t errlen) {
    tid_ranges = o->tid_range_count;
    for (int i = 0; i < tid_ranges; i++) {
        tid_low[i] = o->tid_ranges[i][0];
        tid_high[i] = o->tid_ranges[i][1];
    }
    char why[256];
    if (thread_state_init(why, sizeof(why)))
        log_info("wall: Java thread states unavailable (%s): only running and in a system call are told", why);
    /* The profiling signal's handler too: anyone's SIGPROF is ignored and counted, as in every session. */
    if (engine_install_handler(engine_profiling_signal()) != 0) {
        snprintf(err, errlen, "wall: cannot install the profiling signal handler: %s", strerror(errno));
        return -1;
    }
    /* LIBPROF_TEST_WALL_SHARED_SIGNAL=1 (tests only): share the profiling signal, as when none is free. */
    const char *shared = getenv("LIBPROF_TEST_WALL_SHARED_SIGNAL");
    int q = shared && strcmp(shared, "1") == 0 ? -1 : engine_queued_signal();
    queued_signo = q > 0 ? q : 0;
    if (q > 0) log_debug("wall: samples with real-time signal %d", q);
    else log_info("wall: no real-time signal is free: sharing the profiling signal with the CPU engines, whose "
                  "signals may then merge with ours");
    if (prepare_slots(err, errlen)) return -1;
    const char *all = getenv("LIBPROF_TEST_WALL_SIGNAL_ALL");
    signal_all = all && strcmp(all, "1") == 0;
    uint32_t cookie = 0;
    while (!cookie && getrandom(&cookie, sizeof(cookie), 0) != sizeof(cookie)) cookie = (uint32_t)clock_mono_ns();
    wall.pid = getpid();
    wall.interval_ns = interval_ns;
    memset(&stats, 0, sizeof(stats));
    atomic_store(&wall.cookie, cookie ? cookie : 1);
    atomic_store(&stopping, false);
    if (stoppable_sleep_init(&between_rounds)) {
        atomic_store(&wall.cookie, 0);
        snprintf(err, errlen, "wall: cannot make the timer thread's wait");
        return -1;
    }
    int rc = agent_thread_create(&timer, NULL, "libprof wall", timer_main, NULL);
    if (rc) {
        stoppable_sleep_destroy(&between_rounds);
        atomic_store(&wall.cookie, 0);
        snprintf(err, errlen, "wall: cannot start the timer thread: %s", strerror(rc));
        return -1;
    }
    started = true;
    return 0;
}

static void wall_stop(void) {
    if (!started) return;
    atomic_store(&stopping, true);
    stoppable_sleep_stop(&between_rounds);
    pthread_join(timer, NULL);
    stoppable_sleep_destroy(&between_rounds);
    started = false;
    /* Signals still queued are not ours any more once the cookie is gone: the handler ignores them. */
    atomic_store(&wall.cookie, 0);
    uint64_t visits = stats.signalled + stats.repeated + stats.pending;
    log_info("wall: %llu rounds (%llu late), %llu threads signalled, %llu idle samples repeated without a signal, "
             "%llu signals not sent, %llu threads beyond %d not repeatable, %llu rounds waited for a pending "
             "signal (%llu given up); the timer thread used %.1f ms of CPU, %.2f us per thread and round",
             (unsigned long long)stats.rounds, (unsigned long long)stats.late_rounds,
             (unsigned long long)stats.signalled, (unsigned long long)stats.repeated,
             (unsigned long long)stats.send_failed, (unsigned long long)stats.no_slot, WALL_MAX_THREADS, (unsigned long long)stats.pending,
             (unsigned long long)stats.given_up, stats.timer_cpu_ns / 1e6,
             visits ? stats.timer_cpu_ns / 1e3 / (double)visits : 0.0);
}

/* Our own real-time signal is not the one moved; without one, each round sends the profiling signal as it is
 * now, so the engine follows it wherever it moves. */
static int wall_move_signal(int signo) {
    (void)signo;
    return 0;
}

static const engine_signal_ops wall_signal = {
    .weight = wall_signal_weight,
    .thread_state = wall_signal_thread_state,
    .stored = wall_signal_stored,
    .own_si_codes = {SI_QUEUE, SI_QUEUE},
    .is_own = wall_signal_is_own,
    .move_signal = wall_move_signal,
};

const engine engine_wall = {
    .name = "wall",
    .event = EVENT_WALL,
    .units = ENGINE_UNITS_NS,
    .default_interval = WALL_DEFAULT_INTERVAL_NS,
    .check = wall_check,
    .start = wall_start,
    .stop = wall_stop,
    .signal = &wall_signal,
};
