/* [signal-safe] Runs in signal handlers: the hooks and the table they read; perf_hooks_init.c sets it up. */
/*
 * perf_hooks: a signal is ours when its code is POLL_IN or POLL_HUP (F_SETSIG delivery; POLL_HUP when
 * the event disabled itself: one-shot, or a limit left by an arming) and its si_fd is published for the thread that received it. A
 * stale signal, whose event was released and whose descriptor number was reused since, finds NULL or
 * another thread's tid and is ignored. A SIGTRAP of a sigtrap event (perf_sigtrap.h) names no descriptor:
 * the thread's own event is the published one with its tid, looked up once and remembered per thread.
 */
#define _GNU_SOURCE
#include "perf_hooks.h"

#include "clock_ns.h"
#include "perf_ring.h"
#include "perf_sigtrap.h"
#include "sample_cost.h"
#include "self_tid.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdatomic.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

static perf_thread *_Atomic *by_fd;
/* System calls are dear in a handler (3 us each on a paravirtualised guest); a thread's id never changes.
 * Initial-exec TLS: a fixed offset from the thread pointer, so reading it never allocates. A forked child
 * keeps its parent's value, but no event of ours signals a child. */
static __thread int own_tid __attribute__((tls_model("initial-exec")));
/* The descriptor of this thread's event plus one, as a SIGTRAP handler last found it (0: not yet). */
static __thread int own_fd_plus_one __attribute__((tls_model("initial-exec")));
static _Atomic int highest_fd = -1;   /* the highest descriptor ever published: where a lookup by tid stops */
static _Atomic uint64_t publishes;    /* events published so far */
/* 'publishes' when a lookup by tid last found no event for this thread plus one (0: none failed): until another
 * event is published, a stale SIGTRAP's three hooks need not scan the table again. */
static __thread uint64_t own_missing_at __attribute__((tls_model("initial-exec")));
static _Atomic int in_flight;
static size_t page_size;
static _Atomic uint64_t slow_handlers;   /* turns of threads counting on to one-shot */
static _Atomic uint64_t returns;         /* one-shot threads back to counting on */
static _Atomic uint64_t period_ns;
static _Atomic uint64_t test_delay_ns;
static _Atomic uint64_t test_delays_per_thread;   /* 0: every handler */
static _Atomic uint64_t handler_rearms;   /* one-shot events re-armed by their handler */

/* A thread that turned one-shot returns to counting on after this many fast handlers in a row at first,
 * twice as many after each further turn, at most FAST_NEEDED_MAX. */
#define FAST_NEEDED_FIRST 32
#define FAST_NEEDED_MAX (1u << 20)

void perf_hooks_use(perf_thread *_Atomic *table, size_t page) {
    page_size = page;
    atomic_store_explicit(&by_fd, table, memory_order_release);
}

void perf_hooks_publish(perf_thread *t) {
    for (int high = atomic_load(&highest_fd); t->fd > high && !atomic_compare_exchange_weak(&highest_fd, &high, t->fd);) {}
    atomic_store_explicit(&by_fd[t->fd], t, memory_order_release);
    atomic_fetch_add_explicit(&publishes, 1, memory_order_release);
}

bool perf_hooks_is_own(const siginfo_t *info) {
    if (!info) return false;
    if (info->si_signo == SIGTRAP) return perf_sigtrap_is_ours(info);
    return info->si_code == POLL_IN || info->si_code == POLL_HUP;
}

void perf_hooks_unpublish(perf_thread *t) {
    ioctl(t->fd, PERF_EVENT_IOC_DISABLE, 0);
    atomic_store_explicit(&by_fd[t->fd], NULL, memory_order_release);
}

int perf_hooks_in_flight(void) {
    return atomic_load_explicit(&in_flight, memory_order_acquire);
}

void perf_hooks_arm(perf_thread *t) {
    if (atomic_load_explicit(&t->one_shot, memory_order_relaxed)) ioctl(t->fd, PERF_EVENT_IOC_REFRESH, 1);
    else ioctl(t->fd, PERF_EVENT_IOC_ENABLE, 0);
}

void perf_hooks_allow_counting_on(uint64_t ns) {
    atomic_store(&period_ns, ns);
}

perf_hooks_modes perf_hooks_take_modes(void) {
    return (perf_hooks_modes){atomic_exchange_explicit(&slow_handlers, 0, memory_order_relaxed),
                              atomic_exchange_explicit(&returns, 0, memory_order_relaxed),
                              atomic_exchange_explicit(&handler_rearms, 0, memory_order_relaxed)};
}

void perf_hooks_set_test_delay(uint64_t ns, uint64_t count) {
    atomic_store_explicit(&test_delays_per_thread, count, memory_order_relaxed);
    atomic_store_explicit(&test_delay_ns, ns, memory_order_relaxed);
}

/* The calling thread's published event (a SIGTRAP names none): the one remembered, while it is still
 * published for this thread, else the first published with this thread's tid. */
static perf_thread *own_event(perf_thread *_Atomic *table) {
    int fd = own_fd_plus_one - 1;
    perf_thread *t = fd >= 0 ? atomic_load_explicit(&table[fd], memory_order_acquire) : NULL;
    if (t && t->tid == own_tid) return t;
    uint64_t published = atomic_load_explicit(&publishes, memory_order_acquire);
    if (own_missing_at == published + 1) return NULL;
    int high = atomic_load_explicit(&highest_fd, memory_order_acquire);
    for (fd = 0; fd <= high && fd < PERF_HOOKS_TABLE_MAX; fd++) {
        t = atomic_load_explicit(&table[fd], memory_order_acquire);
        if (t && t->tid == own_tid) {
            own_fd_plus_one = fd + 1;
            return t;
        }
    }
    own_missing_at = published + 1;
    return NULL;
}

static perf_thread *enter(const siginfo_t *info) {
    /* Sequentially consistent, paired with perf_hooks_wait_idle's fence: either the engine sees this handler
     * in flight, or this handler sees the entry already unpublished. */
    atomic_fetch_add_explicit(&in_flight, 1, memory_order_seq_cst);
    if (!perf_hooks_is_own(info)) return NULL;
    perf_thread *_Atomic *table = atomic_load_explicit(&by_fd, memory_order_acquire);
    if (!table) return NULL;
    if (!own_tid) own_tid = self_tid();
    if (info->si_signo == SIGTRAP) return own_event(table);
    if (info->si_fd < 0 || info->si_fd >= PERF_HOOKS_TABLE_MAX) return NULL;
    perf_thread *t = atomic_load_explicit(&table[info->si_fd], memory_order_acquire);
    return t && t->tid == own_tid ? t : NULL;
}

static void leave(void) {
    atomic_fetch_sub_explicit(&in_flight, 1, memory_order_release);
}

int perf_hooks_kernel_frames(const siginfo_t *info, uintptr_t *out, int max) {
    int saved_errno = errno, n = 0;
    perf_thread *t = enter(info);
    if (t && t->ring) {
        struct perf_event_mmap_page *meta = (struct perf_event_mmap_page *)t->ring;
        /* Records written since the handler began are not this sample's: a continuous event's next
         * period, ending inside the handler (its kernel frames would be the handler's own). */
        uint64_t head = t->entry_seen ? t->entry_head : __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
        uint64_t tail = __atomic_load_n(&meta->data_tail, __ATOMIC_RELAXED);
        n = perf_ring_newest_kernel_frames(t->ring + page_size, t->ring_bytes - page_size, tail, head, out, max);
    }
    leave();
    errno = saved_errno;
    return n > 0 ? n : 0;
}

void perf_hooks_begin_kernel_frames(const siginfo_t *info) {
    int saved_errno = errno;
    perf_thread *t = enter(info);
    if (t && t->ring) {
        const struct perf_event_mmap_page *meta = (const struct perf_event_mmap_page *)t->ring;
        t->entry_head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
        t->entry_ticks = sample_cost_now();
        t->entry_seen = true;
        /* The newest record is nearly always the only one, where the previous handler consumed to. */
        const uint8_t *record = t->ring + page_size + (t->consumed & (t->ring_bytes - page_size - 1));
        __builtin_prefetch(record);
        __builtin_prefetch(record + 64);
    }
    leave();
    errno = saved_errno;
}

/* LIBPROF_TEST_SLOW_HANDLER only: busy for 'ns' (clock_gettime reads the vDSO: no system call) when the
 * delay applies to this handler. */
static void test_delay(perf_thread *t, uint64_t ns) {
    if (!ns) return;
    uint64_t limit = atomic_load_explicit(&test_delays_per_thread, memory_order_relaxed);
    if (limit && t->test_delays++ >= limit) return;
    uint64_t start = clock_mono_ns();
    while (clock_mono_ns() - start < ns) {}
}

/* A period that ended inside the handler (after it began: a record written since) has raised the signal
 * again, held pending while the handler runs. A continuous event left so would run its handler back to
 * back, and a thread whose handlers keep outlasting the period would run nothing else: such a thread turns
 * one-shot. Any handler that finds a period ended inside it, one-shot or not, leaves the event off: the
 * pending signal's handler re-arms it (one-shot means the event is off while a signal of its waits or its
 * handler runs), which also undoes an arming that came while a signal waited (the watch's, a signal move). */
static bool period_ended_inside(const perf_thread *t, uint64_t head) {
    return t->entry_seen && perf_ring_period_ended(t->ring + page_size, t->ring_bytes - page_size, t->entry_head, head);
}

/* A handler that took under a quarter of the period (from begin_kernel_frames to now): one that leaves the
 * thread most of each period even counting on. False when its start was not noted. */
static bool handler_was_fast(const perf_thread *t) {
    uint64_t period = atomic_load_explicit(&period_ns, memory_order_relaxed);
    return t->entry_seen && period && sample_cost_ticks_to_ns(sample_cost_now() - t->entry_ticks) < period / 4;
}

/* The outlasted handler's thread turns one-shot (again), and its event stays off for the waiting signal. */
static void turn_one_shot(perf_thread *t) {
    if (!atomic_exchange_explicit(&t->one_shot, true, memory_order_relaxed)) {
        atomic_fetch_add_explicit(&slow_handlers, 1, memory_order_relaxed);
        t->turned = true;
        t->fast_in_row = 0;
        t->fast_needed = t->fast_needed ? (t->fast_needed < FAST_NEEDED_MAX ? 2 * t->fast_needed : FAST_NEEDED_MAX)
                                        : FAST_NEEDED_FIRST;
    }
    ioctl(t->fd, PERF_EVENT_IOC_DISABLE, 0);
}

/* A one-shot thread's event, off since its period ended (REFRESH 1 ran out), is armed again: one-shot, or, for
 * a thread that turned one-shot and has had enough fast handlers in a row since, counting on. Should an arming
 * by the watch have left the event a period to go, it disables itself once more, and the counting-on handler
 * of that signal (POLL_HUP) enables it again (perf_hooks_after_sample). */
static void rearm_one_shot(perf_thread *t, bool fast) {
    t->fast_in_row = fast ? t->fast_in_row + 1 : 0;
    if (t->turned && t->fast_in_row >= t->fast_needed && atomic_load(&period_ns)) {
        t->turned = false;
        atomic_store(&t->one_shot, false);
        /* A move to a real-time signal (perf_move_signal: period_ns, then one_shot, both sequentially
         * consistent) may have come since the first look: then it stays one-shot. */
        if (atomic_load(&period_ns)) atomic_fetch_add_explicit(&returns, 1, memory_order_relaxed);
        else atomic_store(&t->one_shot, true);
    }
    if (atomic_load_explicit(&t->one_shot, memory_order_relaxed))
        atomic_fetch_add_explicit(&handler_rearms, 1, memory_order_relaxed);
    perf_hooks_arm(t);
}

void perf_hooks_after_sample(const siginfo_t *info) {
    int saved_errno = errno;
    perf_thread *t = enter(info);
    if (t) {
        test_delay(t, atomic_load_explicit(&test_delay_ns, memory_order_relaxed));
        bool outlasted = false, fast = handler_was_fast(t);
        if (t->ring) {
            struct perf_event_mmap_page *meta = (struct perf_event_mmap_page *)t->ring;
            uint64_t head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
            outlasted = period_ended_inside(t, head);
            /* Consume everything, read or not: the next signal reads only what is written after. */
            t->consumed = head;
            __atomic_store_n(&meta->data_tail, head, __ATOMIC_RELEASE);
        }
        t->entry_seen = false;
        if (outlasted) turn_one_shot(t);
        else if (atomic_load_explicit(&t->one_shot, memory_order_relaxed)) rearm_one_shot(t, fast);
        else if (info->si_signo != SIGTRAP && info->si_code == POLL_HUP)
            ioctl(t->fd, PERF_EVENT_IOC_ENABLE, 0);   /* a leftover limit (a SIGTRAP cannot tell: the watch re-arms) */
        atomic_fetch_add_explicit(&t->fired, 1, memory_order_relaxed);
    }
    leave();
    errno = saved_errno;
}
