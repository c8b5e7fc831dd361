/*
 * [signal-safe] perf_hooks: the perf engine's part of the signal path. It owns the table that maps an event's
 * descriptor (siginfo si_fd) to its thread's state, so a handler finds its ring buffer with one load,
 * and it counts handlers inside the hooks, so the engine frees a thread's state only once none can
 * still read it. Called by engine_perf (publish, unpublish, wait) and by the sample handler (the hooks).
 * perf_hooks_init, perf_hooks_capacity and perf_hooks_wait_idle are its set-up half (perf_hooks_init.c).
 */
#ifndef LIBPROF_PERF_HOOKS_H
#define LIBPROF_PERF_HOOKS_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    int tid;
    int fd;
    uint8_t *ring;        /* metadata page, then the data pages; NULL: no kernel frames for this thread */
    size_t ring_bytes;
    _Atomic uint32_t fired;   /* signals its handler took */
    /* Re-armed by its handler after each signal (PERF_EVENT_IOC_REFRESH 1); otherwise the event counts on
     * by itself and signals every period. Set by a handler that ran longer than a period, cleared again by
     * its handler after enough fast ones (perf_hooks_after_sample); set for good by a move to a real-time
     * signal (engine_perf's perf_move_signal). */
    _Atomic bool one_shot;
    uint32_t fired_seen;      /* engine_perf's watch only: 'fired' when it last changed */
    /* Its handler's only: one-shot because a handler outlasted a period (turned), which it leaves again after
     * 'fast_needed' handlers in a row that each took under a quarter of the period ('fast_in_row'); the number
     * needed doubles at every turn, so a thread whose handlers are slow now and then settles into one-shot. */
    bool turned;
    uint32_t fast_in_row, fast_needed;
    uint64_t entry_ticks;     /* its handler's only: the time-stamp counter when the handler began (entry_seen) */
    uint64_t test_delays;     /* its handler's only: handlers slowed by LIBPROF_TEST_SLOW_HANDLER */
    uint64_t cpu_seen_ns;     /* engine_perf's watch only: the thread's CPU clock then */
    uint64_t consumed;        /* its handler's only: the ring position it consumed to, where the next record goes */
    uint64_t entry_head;      /* its handler's only: the ring's head when the handler began (entry_seen) */
    bool entry_seen;
} perf_thread;

#define PERF_HOOKS_TABLE_MAX (1 << 20)

void perf_hooks_publish(perf_thread *t);
/* Disables the event and hides it from handlers; 't' stays valid until perf_hooks_wait_idle
 * (perf_hooks_init.h) returns. */
void perf_hooks_unpublish(perf_thread *t);

/* The signal-safe half the set-up half uses: the table to publish into (with the page size of the rings),
 * and how many handlers are inside the hooks now. */
void perf_hooks_use(perf_thread *_Atomic *table, size_t page_size);
int perf_hooks_in_flight(void);

/* Arms t's event: one-shot (REFRESH 1) or counting on (ENABLE), as t->one_shot says. */
void perf_hooks_arm(perf_thread *t);
/* The period in ns of events that may count on, which a one-shot thread's handlers are timed against to
 * return to counting on; 0: none may (counted events, no rings, a real-time signal). */
void perf_hooks_allow_counting_on(uint64_t period_ns);
/* Since the last call: how many times a thread counting on turned one-shot (a handler outlasted a period), how
 * many times one returned to counting on (fast handlers in a row), and how many times a handler re-armed its
 * one-shot event (a system call each). */
typedef struct {
    uint64_t turns, returns, rearms;
} perf_hooks_modes;
perf_hooks_modes perf_hooks_take_modes(void);
/* The test-only handler delay (LIBPROF_TEST_SLOW_HANDLER: makes handlers slower than a period): 'ns' of busy
 * waiting added to each of the first 'count' handlers of every thread (every handler when count is 0). */
void perf_hooks_set_test_delay(uint64_t ns, uint64_t count);

/* engine hooks (async-signal-safe): see engine.h. is_own: POLL_IN/POLL_HUP of F_SETSIG delivery, or a
 * SIGTRAP of one of our sigtrap events. */
bool perf_hooks_is_own(const siginfo_t *info);
/* Notes the ring's head as the handler begins (records after it are not this sample's: perf_hooks_kernel_frames,
 * perf_hooks_after_sample), and starts loading the lines perf_hooks_kernel_frames will read. */
void perf_hooks_begin_kernel_frames(const siginfo_t *info);
int perf_hooks_kernel_frames(const siginfo_t *info, uintptr_t *out, int max);
void perf_hooks_after_sample(const siginfo_t *info);

#endif
