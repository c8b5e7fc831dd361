/*
 * engine_wall: wall-clock sampling (event=wall, or wall[=INTERVAL] beside another event). Every interval a
 * timer thread of ours samples some of the process's threads (Scale, below), whatever each is doing, with
 * its state (thread_state.h): it queues the profiling signal to the thread
 * (rt_tgsigqueueinfo: wall_signal.h says how the handler knows it is ours), and the handler walks the
 * whole stack as for CPU samples.
 *
 * The signal is a real-time one of its own (engine_queued_signal), not the profiling signal the CPU
 * engines use: standard signals do not queue, so a perf event's signal arriving while a wall signal is
 * pending on that thread would be merged into it and lost, and with it the one-shot event's re-arming
 * (the thread would get no more CPU samples). Real-time signals queue. Only when none is free does the
 * engine share the profiling signal (logged; merges are then possible, see engine_perf.c's re-arming).
 *
 * Scale: a JVM with thousands of threads that mostly wait must not pay for each of them every interval.
 * Each interval visits at most wallthreads threads (default 32) of a cycle, in turn: the threads are listed
 * (/proc/self/task) at the start of each cycle, and visited 32 an interval until every one has been; a
 * sample then weighs the time since its thread's previous visit, so the weights keep each thread's time.
 * A visited thread that has not run since its last sample is where that sample found it: its stack and
 * state are the same, so the timer thread counts that sample once more (trace_store_repeat) instead of
 * signalling it. It knows from the thread's CPU clock (one system call, made here, never in a handler):
 * unmoved, beyond what the signal's own delivery costs (IDLE_CPU_NS), since its last
 * sample's handler finished. A thread is signalled again as soon as it runs, and when its previous
 * sample's table has been swapped out (JFR chunks) or the sample was dropped.
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
#include "safe_read.h"
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
 * a thread that used no more than this since its last sample did not run. Measured here: 1-9 us for an
 * idle thread, 20-70 us for one that woke, returned and waited again from another caller (async-profiler
 * allows 10 us too). */
#define IDLE_CPU_NS 10000ULL
/* Time a signal may stay pending, in intervals, before the thread is signalled again. */
#define PENDING_ROUNDS_MAX 100
/* Threads visited per interval unless wallthreads= says: the bound on a tick's work, whatever the number
 * of threads (async-profiler sends at most 8 signals per step of its walk over all threads). */
#define WALL_DEFAULT_THREADS_PER_TICK 32

static pthread_t timer;
static bool signal_all;         /* LIBPROF_TEST_WALL_SIGNAL_ALL (benchmark only): no repeats, every thread signalled */
static _Atomic bool stopping;
static stoppable_sleep between_rounds; /* the timer thread's wait between rounds */
static bool started;
static int tid_ranges;
static uint32_t tid_low[OPTIONS_MAX_TID_RANGES], tid_high[OPTIONS_MAX_TID_RANGES];
static u64map slot_by_tid;      /* tid -> slot index + 1 (timer thread only) */
static uint32_t *free_slots;    /* free slot indexes (a stack, lowest on top) */
static uint32_t free_count;
static uint32_t slots_high;     /* slots below this index have been claimed at some time */
static uint32_t cycle_no;       /* cycles so far: a cycle visits every thread listed at its start once */
static uint32_t *listed_tid, *listed_slot;  /* this cycle's threads (slot UINT32_MAX: none free) */
static uint32_t listed_count, cursor;       /* the next to visit */
static uint32_t per_tick;       /* threads visited per interval */
static uint64_t cycle_weight_ns;/* a visit's weight when no better is known: how long a cycle should take */
static uint64_t listed_ns;      /* when this cycle's threads were listed */
static uint64_t new_since_ns;   /* where a thread first listed this cycle is taken to have started */
static int queued_signo;        /* our own real-time signal; 0: none free, the profiling signal is shared */

typedef struct {
    uint64_t rounds, late_rounds, cycles, visits, signalled, repeated, send_failed, no_slot, pending, given_up;
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
    s->missed_ns = 0;
    s->visited_ns = 0;
    s->tid = tid;
    if (u64map_put(&slot_by_tid, tid, (uint64_t)i + 1)) {
        free_slots[free_count++] = i;
        return UINT32_MAX;
    }
    if (i >= slots_high) slots_high = i + 1;
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

/* Counts the last sample once more for each visit that passed while its signal was pending. */
static void repeat_missed(wall_slot *s, uint32_t tid, uint64_t ref) {
    trace_key key = {tid, EVENT_WALL, (uint8_t)atomic_load(&s->state)};
    uint64_t each = s->missed_ns / s->missed;
    for (; s->missed; s->missed--) {
        if (!sample_rate_admits(EVENT_WALL)) continue;
        trace_store_result r = trace_store_repeat(ref, &key, each);
        if (r == TRACE_STORE_STALE) break;
        sample_count_repeat(r);
        stats.repeated++;
    }
    s->missed = 0;
    s->missed_ns = 0;
}

/* Whether the thread is where its last sample found it: one that has not moved its CPU clock since that
 * sample's handler ended has not run. (The JVM's memory cannot say it: a thread that woke, returned and
 * waited again in the same wait from another interpreted caller reads the same states, anchor and return
 * address, and would keep a stack it has left.) */
static bool still_idle(wall_slot *s, uint32_t tid) {
    uint64_t cpu = engine_thread_cpu_ns((int)tid), after = atomic_load_explicit(&s->cpu_after_ns, memory_order_relaxed);
    int state = (int)atomic_load(&s->state);
    /* A thread sampled while running that used any CPU since may have gone to wait right after: only a
     * thread sampled waiting is allowed what our signal's delivery costs it. */
    uint64_t allowed = state == THREAD_STATE_RUNNABLE || state == THREAD_STATE_NATIVE ? 0 : IDLE_CPU_NS;
    /* cpu < after: not the thread sampled (its id was reused by a new thread since). */
    return cpu && after && cpu >= after && cpu <= after + allowed;
}

/* Samples one thread, its sample standing for 'weight' ns: repeats its last sample when it has not run
 * since, else signals it. */
static void sample_thread(uint32_t tid, wall_slot *s, uint32_t i, uint64_t weight) {
    /* answered behind sent (a queued signal given up on may still come, and be answered twice). */
    if ((int32_t)(atomic_load_explicit(&s->answered, memory_order_acquire) - s->sent) < 0) {
        /* The last signal has not been taken yet (a waiting thread may take long to be scheduled under
         * load): a second one would merge with it and this visit be lost. It is counted with that sample
         * when it comes; a thread that never takes it (blocking the signal) is signalled again. */
        stats.pending++;
        s->missed++;
        s->missed_ns += weight;
        if (s->missed_ns < PENDING_ROUNDS_MAX * wall.interval_ns) return;
        stats.given_up++;
        s->missed = 0;
        s->missed_ns = 0;
        s->sent = atomic_load(&s->answered);
    }
    uint64_t ref = atomic_load_explicit(&s->ref, memory_order_relaxed);
    if (s->missed) repeat_missed(s, tid, ref);
    if (ref != TRACE_STORE_NO_REF && !signal_all && still_idle(s, tid)) {
        if (!sample_rate_admits(EVENT_WALL)) return;
        trace_key key = {tid, EVENT_WALL, (uint8_t)atomic_load(&s->state)};
        trace_store_result r = trace_store_repeat(ref, &key, weight);
        if (r != TRACE_STORE_STALE) {
            sample_count_repeat(r);
            stats.repeated++;
            return;
        }
    }
    atomic_store_explicit(&s->weight_ns, weight, memory_order_relaxed);   /* the send is a barrier */
    if (send_signal(tid, i)) s->sent++;
}

/* One visit: the thread's sample stands for the time since its previous visit, or on the first since the
 * thread is taken to have started. */
static void visit(uint32_t tid, uint32_t i, uint64_t now) {
    stats.visits++;
    if (i == UINT32_MAX) {
        stats.no_slot++;
        atomic_store(&wall.unslotted_weight_ns, cycle_weight_ns);
        send_signal(tid, UINT32_MAX);   /* sampled anyway; its sample cannot be repeated */
        return;
    }
    wall_slot *s = &wall.slots[i];
    uint64_t since = s->visited_ns ? s->visited_ns : new_since_ns;
    uint64_t weight = since && now > since ? now - since : cycle_weight_ns;
    s->visited_ns = now;
    sample_thread(tid, s, i, weight);
}

/* Counts the thread's last sample once more for the time since its last visit that no visit will count:
 * its thread has ended, or the profiling. Only when that is more than two intervals (more threads than a
 * round visits): with fewer, every thread is visited every interval and what is left is less than one, as
 * it always was, not worth a sample more in the counts. */
static void credit_rest(wall_slot *s, uint64_t weight) {
    uint64_t ref = atomic_load_explicit(&s->ref, memory_order_relaxed);
    if (ref == TRACE_STORE_NO_REF || weight <= 2 * wall.interval_ns || atomic_load(&s->answered) != s->sent) return;
    if (!sample_rate_admits(EVENT_WALL)) return;
    trace_key key = {s->tid, EVENT_WALL, (uint8_t)atomic_load(&s->state)};
    trace_store_result r = trace_store_repeat(ref, &key, weight);
    if (r == TRACE_STORE_STALE) return;
    sample_count_repeat(r);
    stats.repeated++;
}

/* Frees the slots of threads that were not listed this cycle: they have ended, some time between their
 * last visit and now, half of which their last sample is counted for. */
static void forget_ended(uint64_t now) {
    for (uint32_t i = 0; i < slots_high; i++) {
        wall_slot *s = &wall.slots[i];
        if (!s->tid || s->seen == cycle_no) continue;
        if (s->visited_ns && now > s->visited_ns) credit_rest(s, (now - s->visited_ns) / 2);
        uint64_t unused;
        u64map_remove(&slot_by_tid, s->tid, &unused);
        s->tid = 0;
        atomic_store(&s->ref, TRACE_STORE_NO_REF);
        free_slots[free_count++] = i;
    }
}

/* Starts a cycle: lists the threads to visit (/proc/self/task), claims their slots, frees the ended ones'. */
static void list_threads(uint32_t self) {
    cursor = listed_count = 0;
    DIR *d = opendir("/proc/self/task");
    if (!d) return;
    cycle_no++;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        char *end;
        unsigned long tid = strtoul(e->d_name, &end, 10);
        if (*end || tid == 0 || tid == self || !tid_wanted((uint32_t)tid) || agent_thread_is_ours((uint32_t)tid))
            continue;
        if (listed_count == WALL_MAX_THREADS) {
            stats.no_slot++;
            continue;
        }
        uint32_t i = slot_for((uint32_t)tid);
        if (i != UINT32_MAX) wall.slots[i].seen = cycle_no;
        listed_tid[listed_count] = (uint32_t)tid;
        listed_slot[listed_count++] = i;
    }
    closedir(d);
    uint64_t now = clock_mono_ns();
    forget_ended(now);
    /* A thread new in this listing started between the previous one and this (halfway, on average); one
     * listed by the first started before the profiling, which it is counted from. */
    new_since_ns = listed_ns ? listed_ns + (now - listed_ns) / 2 : now;
    listed_ns = now;
    stats.cycles++;
    cycle_weight_ns = (uint64_t)((listed_count + per_tick - 1) / per_tick) * wall.interval_ns;
}

/* One interval's work: the next per_tick threads of the cycle, a new cycle when it is done. The listing is
 * the only part that grows with the thread count, and it is made once per cycle. */
static void sample_round(uint32_t self) {
    if (cursor >= listed_count) list_threads(self);
    uint64_t now = clock_mono_ns();
    uint32_t end = listed_count - cursor > per_tick ? cursor + per_tick : listed_count;
    for (; cursor < end; cursor++)   /* ours again: one of our threads may have been listed before it said so */
        if (!agent_thread_is_ours(listed_tid[cursor])) visit(listed_tid[cursor], listed_slot[cursor], now);
    stats.rounds++;
}

static void *timer_main(void *arg) {
    (void)arg;
    sigset_t mask;   /* safe_read must know whether faults may be taken on this thread */
    pthread_sigmask(SIG_SETMASK, NULL, &mask);
    safe_read_note_signal_mask(&mask);
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
    /* The time since each thread's last visit, up to the end of profiling, goes to its last sample. */
    uint64_t end = clock_mono_ns();
    for (uint32_t i = 0; i < slots_high; i++) {
        wall_slot *s = &wall.slots[i];
        if (s->tid && s->visited_ns && end > s->visited_ns) credit_rest(s, end - s->visited_ns);
    }
    stats.timer_cpu_ns = clock_ns(CLOCK_THREAD_CPUTIME_ID);
    return NULL;
}

static int prepare_slots(char *err, size_t errlen) {
    if (!wall.slots) {
        void *p = mmap(NULL, WALL_MAX_THREADS * sizeof(wall_slot), PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        free_slots = malloc(WALL_MAX_THREADS * sizeof(uint32_t));
        listed_tid = malloc(WALL_MAX_THREADS * sizeof(uint32_t));
        listed_slot = malloc(WALL_MAX_THREADS * sizeof(uint32_t));
        if (p == MAP_FAILED || !free_slots || !listed_tid || !listed_slot) {
            if (p != MAP_FAILED) munmap(p, WALL_MAX_THREADS * sizeof(wall_slot));
            free(free_slots);
            free(listed_tid);
            free(listed_slot);
            free_slots = listed_tid = listed_slot = NULL;
            snprintf(err, errlen, "wall: cannot reserve memory for %d threads", WALL_MAX_THREADS);
            return -1;
        }
        wall.slots = p;
        wall.capacity = WALL_MAX_THREADS;
    }
    memset(wall.slots, 0, slots_high * sizeof(wall_slot));
    slots_high = cycle_no = listed_count = cursor = 0;
    listed_ns = new_since_ns = 0;
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
    per_tick = o->wall_threads > 0 ? (uint32_t)o->wall_threads : WALL_DEFAULT_THREADS_PER_TICK;
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
    log_info("wall: %llu rounds (%llu late), %llu cycles, %llu visits (at most %u a round), %llu threads signalled, "
             "%llu idle samples repeated without a signal, %llu signals not sent, %llu threads beyond %d not "
             "repeatable, %llu visits waited for a pending signal (%llu given up); the timer thread used %.1f ms "
             "of CPU, %.2f us per visit",
             (unsigned long long)stats.rounds, (unsigned long long)stats.late_rounds, (unsigned long long)stats.cycles,
             (unsigned long long)stats.visits, per_tick, (unsigned long long)stats.signalled,
             (unsigned long long)stats.repeated, (unsigned long long)stats.send_failed,
             (unsigned long long)stats.no_slot, WALL_MAX_THREADS, (unsigned long long)stats.pending,
             (unsigned long long)stats.given_up, stats.timer_cpu_ns / 1e6,
             stats.visits ? stats.timer_cpu_ns / 1e3 / (double)stats.visits : 0.0);
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
