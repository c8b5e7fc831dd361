/*
 * engine_perf: one perf event per thread (perf_event_open with pid = that thread's tid, any CPU). The
 * software cpu-clock event is an hrtimer on the thread's own CPU time, so its period is a true period,
 * not rounded to the kernel tick as POSIX CPU timers are.
 *
 * At the end of each period an event writes one sample record (the kernel call chain) into the thread's
 * small ring buffer and raises the profiling signal (SIGPROF unless the application owns it) on the very
 * thread it measured (O_ASYNC, F_SETSIG, F_SETOWN_EX with F_OWNER_TID). The shared handler asks us for the
 * kernel frames (kernel_frames) and lets us re-arm (after_sample).
 *
 * A time event counts on by itself (PERF_EVENT_IOC_ENABLE once): no re-arming system call per sample (an
 * ioctl per signal saved), and a lost signal costs that one sample only. A thread
 * whose handler outlasts a period (its next period ended inside the handler, so its signal waits to run the
 * handler again at once) turns one-shot: PERF_EVENT_IOC_REFRESH 1 makes the event disable itself after one
 * period, and the handler re-arms it when done, so the thread's own code gets a period between two handlers
 * (the first after the turn may be shorter: what was left of the one that ended). After 32 handlers in a row
 * that each took under a quarter of the period it counts on again, after twice as many at each further turn
 * (a first sample's cold caches make one slow handler; a thread whose handlers are often slow stays one-shot). Any
 * handler inside which a period ended leaves the event off for the waiting signal's handler to re-arm
 * (perf_hooks_after_sample), so no arming can keep a slow handler running back to back. One-shot from the
 * start: counted events (page faults...), a thread without its ring (the handler judges "outlasted" from
 * it), and every thread when the signal is a real-time one (counts_on).
 *
 * The handler finds its thread's state from the descriptor in siginfo (perf_hooks). Descriptors and rings
 * are released on thread end, on stop, and for threads that died without telling the JVM (swept now and
 * then); their number is bounded by half of RLIMIT_NOFILE so the application keeps its descriptors. State
 * a handler may be reading is freed only after perf_hooks_wait_idle.
 *
 * A one-shot event is re-armed only by its handler: if its signal never reaches the handler (a standard
 * signal arriving while one of the same number is pending on the thread is merged into it: anyone's kill,
 * another engine sharing the signal; or the thread blocks it), the thread would get no CPU samples for the
 * rest of the session. A watch thread re-arms the time event of a thread that has run WATCH_STUCK_PERIODS
 * periods of CPU without a signal taken (an armed event fires after one), and counts the periods it ran as
 * samples lost (DROP_SIGNAL_LOST; an estimate, to the watch's granularity). A continuous event needs no
 * re-arming (arming it again changes nothing), but its thread's periods without a signal taken (the thread
 * blocks the signal) are counted the same way. Counted events (page faults...) may rightly not fire for
 * long: not watched.
 */
#define _GNU_SOURCE
#include "engine.h"
#include "engine_signals.h"
#include "self_tid.h"

#include "log.h"
#include "native_hooks_install.h"
#include "perf_events.h"
#include "perf_breakpoint.h"
#include "perf_fdtransfer.h"
#include "perf_hooks.h"
#include "perf_hooks_init.h"
#include "perf_sigtrap.h"
#include "periodic.h"
#include "proc_status.h"
#include "sample.h"
#include "sigtrap_guard.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#define RING_DATA_PAGES 1          /* one sample at a time: a full kernel chain is about 1 KiB */
#define SWEEP_EVERY 64             /* thread starts between two sweeps for dead threads */
/* A time event this short would keep a thread in its signal handler: the kernel itself allows 10 us. */
#define MIN_TIME_PERIOD_NS 100000ULL
#define WATCH_STUCK_PERIODS 4
/* The watch looks at most every 250 ms: one system call per thread each time (its CPU clock), which must
 * stay cheap for JVMs with thousands of threads. */
#define WATCH_MIN_NS 250000000L

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static perf_thread **threads;      /* under lock */
static size_t thread_count, thread_capacity;
static bool running;
static uint64_t period;
static size_t page_size;
static size_t fd_budget;           /* descriptors this engine may hold */
static size_t fd_ceiling;          /* no descriptor at or above: the process is near its limit */
static unsigned starts_since_sweep;

/* The running session's choice, from the options start was given (configure). */
static const perf_event_kind *kind;
/* event=Class::method: the function's address, found at the session's start (probe) */
static perf_event_kind breakpoint_kind = {"breakpoint", PERF_TYPE_BREAKPOINT, 0, false, 1};
static uintptr_t breakpoint_addr;
static char uprobe_path[4096];     /* the fallback's (a uprobe's) file and offset, breakpoint_kind.type its PMU's */
static uint64_t uprobe_offset;
static int target_cpu = -1;        /* target-cpu=: the one CPU the events count on, -1 for any */
static bool want_kernel;           /* not alluser */
static bool kernel_allowed;        /* want_kernel, unless the kernel refused kernel sampling */
/* The events signal with SIGTRAP (perf_sigtrap.h) rather than F_SETSIG's profiling signal: decided at start
 * (sigtrap_refusal), given up for the session if SIGTRAP is taken past the guard or a debugger attaches
 * (leave_sigtrap). Under lock. */
static bool use_sigtrap;
static bool sigtrap_asked;         /* features=sigtrap: opt-in, a refusal is warned */
static bool sigtrap_declined;      /* features=nosigtrap (the default, said for clarity) */
static _Atomic bool period_exact;  /* a time event counting all CPU time, at the interval asked for */
/* LIBPROF_TEST_DENY_PERF, a test-only switch: refuse as a locked-down kernel would. "1" refuses every
 * perf_event_open (paranoid 3, seccomp); "kernel" refuses kernel sampling only (paranoid 2). */
static enum { DENY_NONE, DENY_ALL, DENY_KERNEL, DENY_BREAKPOINT } deny_for_test;

/* Threads the session could not sample fully, reported at stop. */
static uint64_t armed_total, skipped_fd_limit, open_failed, without_ring;
static uint64_t rearmed_lost, lost_periods;   /* the watch's re-arms, and the periods they had missed */
static periodic watch;

static int open_event_of(const perf_event_kind *k, int deny, int tid, int cpu, bool kernel, bool sigtrap,
                         uint64_t sample_period) {
    struct perf_event_attr a;
    memset(&a, 0, sizeof(a));
    a.size = sizeof(a);
    a.type = k->type;
    a.config = k->config;
    if (k->type == PERF_TYPE_BREAKPOINT) {
        /* event=Class::method: a debug register on the function's first instruction, every call an event */
        a.bp_type = HW_BREAKPOINT_X;
        a.bp_addr = breakpoint_addr;
        a.bp_len = sizeof(long);
    } else if (k == &breakpoint_kind) {
        /* its fallback, a uprobe: the kernel copies the path at the open */
        a.config = 0;
        a.uprobe_path = (uint64_t)(uintptr_t)uprobe_path;
        a.probe_offset = uprobe_offset;
    }
    a.sample_period = sample_period;
    a.disabled = 1;
    a.exclude_idle = 1;
    a.exclude_hv = 1;
    a.wakeup_events = 1;
    a.exclude_kernel = !kernel;
    if (sigtrap) {
        a.sigtrap = 1;
        a.remove_on_exec = 1;   /* the kernel asks it of sigtrap events */
        a.sig_data = PERF_SIGTRAP_COOKIE;
        /* No wake-up per record: it is what raises the self-interrupt the SIGTRAP delivery avoids. Each
         * handler consumes its record, so the ring's default watermark is hardly ever reached. */
        a.wakeup_events = 0;
    }
    if (kernel) {
        a.sample_type = PERF_SAMPLE_CALLCHAIN;
        /* User frames come from the signal context (AsyncGetCallTrace, the native walkers): asking the
         * kernel for them too would cost a second user stack walk per sample. */
        a.exclude_callchain_user = 1;
    }
    if (perf_fdtransfer_connected()) {
        /* fdtransfer: jprof's helper opens it, with its privileges (the JVM's own refusal does not apply) */
        int fd = perf_fdtransfer_open(&a, tid, cpu);
        if (fd >= 0 || errno != ECONNRESET) return fd;
        log_warn("perf: fdtransfer: jprof's helper stopped answering: perf events are opened by the JVM itself "
                 "from now on");
    }
    if (deny == DENY_ALL || (deny == DENY_KERNEL && kernel)) {
        errno = EACCES;
        return -1;
    }
    if (deny == DENY_BREAKPOINT && a.type == PERF_TYPE_BREAKPOINT) {
        errno = ENOSPC;   /* as when a debugger holds the debug registers */
        return -1;
    }
    /* cpu -1: wherever the thread runs; else only while it runs there (target-cpu) */
    return (int)syscall(SYS_perf_event_open, &a, tid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

/* An event of the running session's kind. */
static int open_event(int tid, bool kernel, bool sigtrap, uint64_t sample_period) {
    return open_event_of(kind, deny_for_test, tid, target_cpu, kernel, sigtrap, sample_period);
}

static int paranoid_level(void) {
    int level = -99;
    FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
    if (f) {
        if (fscanf(f, "%d", &level) != 1) level = -99;
        fclose(f);
    }
    return level;
}

static void explain_refusal(int error, const perf_event_kind *k, int deny, char *err, size_t errlen) {
    if (deny)
        snprintf(err, errlen, "perf_event_open refused: %s (simulated: LIBPROF_TEST_DENY_PERF is set, a "
                 "test-only switch)", strerror(EACCES));
    else if (error == EACCES || error == EPERM)
        snprintf(err, errlen, "perf_event_open refused: %s (kernel.perf_event_paranoid=%d; a container or "
                 "seccomp policy may also forbid it)", strerror(error), paranoid_level());
    else if (error == ENOSYS)
        snprintf(err, errlen, "perf_event_open: %s (a kernel without perf events, or a seccomp filter)",
                 strerror(error));
    else if (k->type == PERF_TYPE_BREAKPOINT)
        snprintf(err, errlen, "perf_event_open: %s (a hardware breakpoint on the function%s; no uprobe could stand in)",
                 strerror(error),
                 error == ENOSPC ? ": the thread's debug registers are taken, by a debugger or by other breakpoints"
                                 : " is not offered here");
    else if ((error == ENOENT || error == EOPNOTSUPP || error == EINVAL) &&
             (k->type == PERF_TYPE_HARDWARE || k->type == PERF_TYPE_HW_CACHE))
        snprintf(err, errlen, "perf_event_open: %s (no hardware counter for event %s here: virtual machines and "
                 "containers rarely expose the CPU's counters; event=cpu samples CPU time)", strerror(error), k->name);
    else if (error == ENOENT || error == EOPNOTSUPP || error == EINVAL)
        snprintf(err, errlen, "perf_event_open: %s (this kernel does not offer event %s)", strerror(error),
                 k->name);
    else
        snprintf(err, errlen, "perf_event_open: %s", strerror(error));
}

/* LIBPROF_TEST_SLOW_HANDLER=<microseconds>[,<count>], a test-only switch: every handler of this engine (or
 * only each thread's first <count>) busy-waits that long, to make handlers outlast the period. */
static void set_test_slow_handlers(void) {
    const char *us = getenv("LIBPROF_TEST_SLOW_HANDLER");
    char *end = NULL;
    uint64_t ns = us && *us ? strtoull(us, &end, 10) * 1000ULL : 0, count = 0;
    if (end && *end == ',') count = strtoull(end + 1, NULL, 10);
    perf_hooks_set_test_delay(ns, count);
}

/* 'cpu' takes cpu-clock; a native function a breakpoint (its address from find_function). */
static const perf_event_kind *kind_of(const char *event) {
    if (perf_events_is_native_function(event)) return &breakpoint_kind;
    const perf_event_kind *k = perf_events_find(event);
    return k ? k : perf_events_find("cpu-clock");
}

static int test_denial(void) {
    const char *deny = getenv("LIBPROF_TEST_DENY_PERF");
    return !deny || !*deny || strcmp(deny, "0") == 0 ? DENY_NONE
           : strcmp(deny, "kernel") == 0            ? DENY_KERNEL
           : strcmp(deny, "breakpoint") == 0        ? DENY_BREAKPOINT
                                                    : DENY_ALL;
}

/* fdtransfer=NAME: the helper's connection, made once per session; where it cannot be made, the JVM opens its
 * events itself, and says so once. */
static char helper_tried[128];     /* the name last tried, under the session's start */
static char uprobe_said[sizeof(((prof_options *)0)->event)];      /* the event whose uprobe fallback was warned about */

static void reach_helper(const prof_options *o) {
    if (!o->fdtransfer[0] || perf_fdtransfer_connected() || strcmp(helper_tried, o->fdtransfer) == 0) return;
    snprintf(helper_tried, sizeof(helper_tried), "%s", o->fdtransfer);
    char why[256];
    if (perf_fdtransfer_connect(o->fdtransfer, why, sizeof(why)) != 0)
        log_warn("perf: fdtransfer: %s; opening perf events in the JVM itself", why);
    else log_info("perf: fdtransfer: perf events are opened by jprof's helper @%s", o->fdtransfer);
}

static void leave_helper(void) {
    perf_fdtransfer_close();
    helper_tried[0] = 0;
}

/* A hardware breakpoint refused with 'error': a uprobe on the function instead, where the kernel has them and
 * opens one here (usually root or CAP_PERFMON only). Its descriptor with breakpoint_kind turned into a uprobe,
 * said once; or -1 with errno 'error' and breakpoint_kind left as it was. */
static int fall_back_to_uprobe(const prof_options *o, int deny, int tid, int error) {
    int type = perf_breakpoint_uprobe_type();
    int fd = -1;
    if (type >= 0 && perf_breakpoint_file_offset(breakpoint_addr, uprobe_path, sizeof(uprobe_path), &uprobe_offset) == 0) {
        breakpoint_kind.type = (uint32_t)type;
        breakpoint_kind.name = "uprobe";
        fd = open_event_of(&breakpoint_kind, deny, tid, o->target_cpu, false, false, 1000000000ULL);
    }
    if (fd < 0) {
        breakpoint_kind.type = PERF_TYPE_BREAKPOINT;
        breakpoint_kind.name = "breakpoint";
        errno = error;
        return -1;
    }
    if (strcmp(uprobe_said, o->event) != 0) {
        snprintf(uprobe_said, sizeof(uprobe_said), "%s", o->event);
        log_warn("event=%s: a hardware breakpoint refused (%s): using a uprobe on the function instead (%s+%#llx)",
                 o->event, strerror(error), uprobe_path, (unsigned long long)uprobe_offset);
    }
    return fd;
}

/* Whether the kernel opens the event the options ask for, here, now, on this thread: 0, with *kernel
 * whether kernel frames are allowed too, or -1 with the reason. Changes nothing of a running session. */
static int probe(const prof_options *o, bool *kernel, char *err, size_t errlen) {
    const perf_event_kind *k = kind_of(o->event);
    int deny = test_denial(), tid = self_tid();
    /* a function's calls are in user space: no kernel frames to ask for */
    *kernel = !o->alluser && k != &breakpoint_kind;
    if (k == &breakpoint_kind) {
        breakpoint_kind.type = PERF_TYPE_BREAKPOINT;
        breakpoint_kind.name = "breakpoint";
        if (perf_breakpoint_find(o->event, &breakpoint_addr, err, errlen) != 0) return -1;
    }
    reach_helper(o);
    int fd = open_event_of(k, deny, tid, o->target_cpu, *kernel, false, 1000000000ULL);
    if (fd < 0 && k == &breakpoint_kind) fd = fall_back_to_uprobe(o, deny, tid, errno);
    if (fd < 0 && *kernel && (errno == EACCES || errno == EPERM)) {
        /* perf_event_paranoid=2 allows user-space sampling only: still better than a timer. */
        fd = open_event_of(k, deny, tid, o->target_cpu, false, false, 1000000000ULL);
        if (fd >= 0) *kernel = false;
    }
    if (fd < 0 && o->target_cpu >= 0 && (errno == ENODEV || errno == EINVAL) && !deny) {
        snprintf(err, errlen, "target-cpu=%d: no such CPU online here (perf_event_open: %s; this machine has CPUs "
                 "0-%ld)", o->target_cpu, strerror(errno), sysconf(_SC_NPROCESSORS_CONF) - 1);
        return -1;
    }
    if (fd < 0) {
        explain_refusal(errno, k, deny, err, errlen);
        return -1;
    }
    close(fd);
    return 0;
}

/* The session's choice, from its options and what the kernel allows now. */
static int configure(const prof_options *o, char *err, size_t errlen) {
    sigtrap_asked = (o->features & PROF_FEATURE_SIGTRAP) != 0;
    sigtrap_declined = (o->features & PROF_FEATURE_NOSIGTRAP) != 0;
    kind = kind_of(o->event);
    target_cpu = o->target_cpu;
    want_kernel = !o->alluser && kind != &breakpoint_kind;
    deny_for_test = test_denial();
    return probe(o, &kernel_allowed, err, errlen);
}

static int perf_check(const prof_options *o, char *err, size_t errlen) {
    bool kernel;
    return probe(o, &kernel, err, errlen);
}

/* Thread bookkeeping (under lock) ----------------------------------------------------------------------- */

static void destroy(perf_thread *t) {
    if (t->ring) munmap(t->ring, t->ring_bytes);
    close(t->fd);
    free(t);
}

static void warn_once(bool *warned, const char *fmt, int tid, const char *why) {
    if (*warned) return;
    *warned = true;
    log_warn(fmt, tid, why);
}

static void map_ring(perf_thread *t) {
    static bool warned;
    size_t bytes = page_size * (1 + RING_DATA_PAGES);
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, t->fd, 0);
    if (p == MAP_FAILED) {
        /* Usually kernel.perf_event_mlock_kb for unprivileged users: the thread is still sampled. */
        without_ring++;
        warn_once(&warned, "perf: thread %d is sampled without kernel frames: ring buffer refused (%s); "
                  "more threads may follow, counted at stop", t->tid, strerror(errno));
        return;
    }
    t->ring = p;
    t->ring_bytes = bytes;
}

static int route_signal(int fd, int tid) {
    struct f_owner_ex owner = {F_OWNER_TID, tid};
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0 || fcntl(fd, F_SETSIG, engine_profiling_signal()) != 0 || fcntl(fd, F_SETOWN_EX, &owner) != 0) return -1;
    return fcntl(fd, F_SETFL, flags | O_ASYNC);
}

static bool grow_list(void) {
    if (thread_count < thread_capacity) return true;
    size_t cap = thread_capacity ? thread_capacity * 2 : 256;
    perf_thread **grown = realloc(threads, cap * sizeof(*threads));
    if (!grown) return false;
    threads = grown;
    thread_capacity = cap;
    return true;
}

/* A breakpoint (event=Class::method) counts on: re-armed with PERF_EVENT_IOC_REFRESH from its handler it fires
 * no more (measured on Linux 6.x: one signal for 1000 calls, against 1000 counting on), and its handler does not
 * call the function, so it cannot count itself. */
static bool breakpoint(void) {
    return kind == &breakpoint_kind;
}

/* Whether this session's events may count on by themselves, and t's. Not a counted event: a handler's own
 * page faults or context switches would count towards its next sample. Not without its ring: a handler could not tell it outlasted a
 * period (perf_hooks_after_sample). Not with a real-time signal (the application handles SIGPROF): those
 * queue instead of merging, so a thread that blocks the signal while it runs would queue one per period,
 * without bound (RLIMIT_SIGPENDING is the whole user's), where a one-shot event leaves at most one. */
static bool counting_on(void) {
    return (breakpoint() || (kind->time_based && kernel_allowed)) && (use_sigtrap || engine_profiling_signal() < SIGRTMIN);
}

static bool counts_on(const perf_thread *t) {
    return counting_on() && (t->ring || breakpoint());
}

static void arm_thread(int tid) {
    static bool warned_limit, warned_open;
    if (thread_count >= fd_budget || !grow_list()) {
        skipped_fd_limit++;
        warn_once(&warned_limit, "perf: thread %d not sampled: %s; more threads may follow, counted at stop",
                  tid, "this engine's share of RLIMIT_NOFILE (half of it) is used up");
        return;
    }
    int fd = open_event(tid, kernel_allowed, use_sigtrap, period);
    if (fd < 0) {
        if (errno == ESRCH) return;   /* the thread ended since it was listed */
        bool limit = errno == EMFILE || errno == ENFILE;
        limit ? skipped_fd_limit++ : open_failed++;
        warn_once(limit ? &warned_limit : &warned_open,
                  "perf: thread %d not sampled: perf_event_open: %s; more threads may follow, counted at stop",
                  tid, strerror(errno));
        return;
    }
    perf_thread *t = (size_t)fd < fd_ceiling ? calloc(1, sizeof(*t)) : NULL;
    if (!t) {
        skipped_fd_limit++;
        close(fd);
        warn_once(&warned_limit, "perf: thread %d not sampled: %s; more threads may follow, counted at stop",
                  tid, "the process uses three quarters of RLIMIT_NOFILE");
        return;
    }
    t->tid = tid;
    t->fd = fd;
    t->cpu_seen_ns = engine_thread_cpu_ns(tid);
    if (kernel_allowed) map_ring(t);
    if (!use_sigtrap && route_signal(fd, tid) != 0) {
        open_failed++;
        destroy(t);
        return;
    }
    threads[thread_count++] = t;
    armed_total++;
    atomic_store_explicit(&t->one_shot, !counts_on(t), memory_order_relaxed);
    perf_hooks_publish(t);
    perf_hooks_arm(t);
}

/* Releases the entries at the given list positions (sorted descending, so removal keeps them valid). */
static void release_at(const size_t *positions, size_t n) {
    for (size_t i = 0; i < n; i++) perf_hooks_unpublish(threads[positions[i]]);
    perf_hooks_wait_idle();
    for (size_t i = 0; i < n; i++) {
        destroy(threads[positions[i]]);
        threads[positions[i]] = threads[--thread_count];
    }
}

/* Releases every thread's event (the list left empty). */
static void release_all(void) {
    for (size_t i = 0; i < thread_count; i++) perf_hooks_unpublish(threads[i]);
    perf_hooks_wait_idle();
    for (size_t i = 0; i < thread_count; i++) destroy(threads[i]);
    thread_count = 0;
}

static void release_tid(int tid) {
    for (size_t i = thread_count; i-- > 0;) {
        if (threads[i]->tid == tid) {
            release_at(&i, 1);
            return;
        }
    }
}

/* Threads the JVM never reports ending (GC workers, native threads) leave their events behind. */
static void sweep_dead_threads(void) {
    size_t dead[64], n = 0;
    pid_t pid = getpid();
    for (size_t i = thread_count; i-- > 0 && n < sizeof(dead) / sizeof(dead[0]);) {
        if (syscall(SYS_tgkill, pid, threads[i]->tid, 0) != 0 && errno == ESRCH) dead[n++] = i;
    }
    if (n) release_at(dead, n);
}

/* The kernel's version as major * 1000 + minor (6.18 -> 6018), 0 when unknown. */
static int kernel_version(void) {
    struct utsname u;
    int major = 0, minor = 0;
    if (uname(&u) != 0 || sscanf(u.release, "%d.%d", &major, &minor) != 2) return 0;
    return major * 1000 + minor;
}

/* A debugger (or strace) traces the process: it would stop at every SIGTRAP of ours. */
static bool traced(void) {
    char tracer[32];
    return proc_status_field("/proc/self/status", "TracerPid", tracer, sizeof(tracer)) && atoi(tracer) > 0;
}

/* Our SIGTRAP handler, installed (again, if the guard of an earlier session was taken past). */
static int install_sigtrap_handler(void) {
    return engine_retake_handler(SIGTRAP) == 0 && engine_handler_installed(SIGTRAP) ? 0 : -1;
}

/* The session is over: the guard stays up with the hooks in place (sigtrap_guard.h says why), but objects
 * loaded from now on are not hooked. */
static void release_guard(void) {
    native_hooks_release(NATIVE_HOOKS_SIGNALS);
}

/* SIGTRAP was taken past the guard: it comes down for good, its hooks out. */
static void drop_guard(void) {
    sigtrap_guard_end();
    native_hooks_remove(NATIVE_HOOKS_SIGNALS);
}

/* SIGTRAP delivery (perf_sigtrap.h), only with features=sigtrap, where it is safe: NULL, or why not. Not the
 * default: a handler that takes SIGTRAP past the guard (a library constructor run before the rescan that would
 * hook its imports, a sigaction found with dlsym, a raw rt_sigaction) receives our signals until the watch moves
 * the events, and the native crash reporters that do so treat SIGTRAP as fatal. F_SETSIG's profiling signal is
 * none of theirs. Linux 6.15 or later only. Sigtrap events exist since 5.13, but until 5.19 a perf SIGTRAP arriving while the
 * thread blocks SIGTRAP (inside any of our handlers, which block each other's signals) was forced: SIGTRAP back
 * to SIG_DFL, the JVM killed; until 6.11 the signal went through the same self-interrupt (nothing saved); and
 * from 6.11 to 6.14 closing an event waited for its thread to run the pending signal work, which a thread
 * asleep in a system call may never do (fixed by "perf: Fix hang while freeing sigtrap event", 6.15). Only a
 * time event with kernel frames: one that excludes the kernel (alluser) could overflow twice before its thread
 * returns to user space, which the kernel warns about in its log. Not under a debugger (it would stop at every
 * sample). A SIGTRAP handler of the application's, installed before or during the session, is kept by the
 * guard (sigtrap_guard.h) and receives every SIGTRAP that is not ours; once the guard is up, our handler
 * is installed. */
static const char *sigtrap_refusal(void) {
    if (!sigtrap_asked) return sigtrap_declined ? "features=nosigtrap given" : "not asked for (features=sigtrap)";
    if (kernel_version() < 6015) return "needs Linux 6.15 or later (older kernels may kill or hang the JVM with it)";
    if (!kind->time_based || !kernel_allowed) return "only for time events with kernel frames";
    if (traced()) return "a debugger traces the process";
    int fd = open_event(self_tid(), kernel_allowed, true, 1000000000ULL);
    if (fd < 0) return "this kernel has no sigtrap events (Linux 5.13 or later)";
    close(fd);
    char err[160];
    int hooked = native_hooks_install(NATIVE_HOOKS_SIGNALS, false, err, sizeof(err));
    if (hooked <= 0) {
        if (hooked == 0) release_guard();
        return hooked < 0 ? "sigaction cannot be hooked" : "no import slot of sigaction to hook";
    }
    if (!sigtrap_guard_begin(perf_sigtrap_handler, install_sigtrap_handler)) {
        release_guard();
        return "SIGTRAP's handler cannot be installed";
    }
    return NULL;
}

/* Another handler took SIGTRAP past the guard, or a debugger attached: our events' signals would reach them
 * ('cause' says which). Every event is opened again with F_SETSIG
 * delivery of the profiling signal (the samples of that moment are lost); 'why' says so for signal_watch. */
static bool leave_sigtrap(const char *cause, bool taken, char *why, size_t len) {
    size_t n = thread_count;
    int *tids = calloc(n ? n : 1, sizeof(*tids));
    if (!tids) return false;   /* tried again at the next look */
    for (size_t i = 0; i < n; i++) tids[i] = threads[i]->tid;
    release_all();
    use_sigtrap = false;
    /* Taken: the guard comes down. A debugger: our handler keeps SIGTRAP, and the guard with it. */
    if (taken) drop_guard();
    else release_guard();
    perf_hooks_allow_counting_on(counting_on() ? period : 0);
    armed_total -= n;
    for (size_t i = 0; i < n; i++) arm_thread(tids[i]);
    free(tids);
    snprintf(why, len, "perf: %s: the events signal with signal %d from now on (%zu of %zu threads armed again)",
             cause, engine_profiling_signal(), thread_count, n);
    return true;
}

/* signal_watch's check (every 200 ms): -1 with the reason once SIGTRAP was taken past the guard (a raw
 * system call), or a debugger attached, and the events moved. */
static int perf_check_owned(char *why, size_t len) {
    pthread_mutex_lock(&lock);
    bool taken = running && use_sigtrap && !engine_handler_installed(SIGTRAP);
    const char *cause = taken                                 ? "SIGTRAP was taken by another handler"
                        : running && use_sigtrap && traced() ? "a debugger attached, which stops at every SIGTRAP"
                                                             : NULL;
    bool left = cause && leave_sigtrap(cause, taken, why, len);
    pthread_mutex_unlock(&lock);
    return left ? -1 : 0;
}

/* Re-arms the events whose signal was lost (see the top of this file). */
static void watch_events(void) {
    pthread_mutex_lock(&lock);
    for (size_t i = 0; running && i < thread_count; i++) {
        perf_thread *t = threads[i];
        uint32_t fired = atomic_load_explicit(&t->fired, memory_order_relaxed);
        uint64_t cpu = engine_thread_cpu_ns(t->tid);
        if (fired != t->fired_seen || cpu < t->cpu_seen_ns) {
            t->fired_seen = fired;
            t->cpu_seen_ns = cpu;
            continue;
        }
        uint64_t ran = cpu - t->cpu_seen_ns;
        if (ran < WATCH_STUCK_PERIODS * period) continue;
        perf_hooks_arm(t);
        t->cpu_seen_ns = cpu;
        rearmed_lost++;
        lost_periods += ran / period;
        sample_count_lost(DROP_SIGNAL_LOST, ran / period);
    }
    pthread_mutex_unlock(&lock);
}

/* Engine interface ------------------------------------------------------------------------------------- */

/* Our share of the descriptors: half of what the process may open, and none once the process as a whole
 * uses three quarters of its limit (descriptors are allocated lowest first, so a new one's number tells).
 * The rest stays the application's. */
static void set_fd_budget(void) {
    struct rlimit nofile = {1024, 1024};
    getrlimit(RLIMIT_NOFILE, &nofile);
    size_t limit = nofile.rlim_cur == RLIM_INFINITY || nofile.rlim_cur > perf_hooks_capacity()
                       ? perf_hooks_capacity()
                       : (size_t)nofile.rlim_cur;
    fd_budget = limit / 2;
    fd_ceiling = limit - limit / 4;
}

static int perf_start(const prof_options *o, uint64_t interval_ns, char *err, size_t errlen) {
    if (configure(o, err, errlen)) return -1;
    if (engine_install_handler(engine_profiling_signal()) != 0) {
        snprintf(err, errlen, "perf: cannot install the signal handler: %s", strerror(errno));
        return -1;
    }
    page_size = (size_t)sysconf(_SC_PAGESIZE);
    pthread_mutex_lock(&lock);
    if (perf_hooks_init() != 0) {
        pthread_mutex_unlock(&lock);
        snprintf(err, errlen, "perf: cannot reserve the descriptor table: %s", strerror(errno));
        return -1;
    }
    set_fd_budget();
    DIR *dir = opendir("/proc/self/task");
    if (!dir) {
        pthread_mutex_unlock(&lock);
        snprintf(err, errlen, "perf: cannot list /proc/self/task: %s", strerror(errno));
        return -1;
    }
    period = interval_ns;
    if (kind->time_based && period < MIN_TIME_PERIOD_NS) {
        log_warn("perf: interval %llu ns is shorter than this engine allows; sampling every %llu ns",
                 (unsigned long long)period, MIN_TIME_PERIOD_NS);
        period = MIN_TIME_PERIOD_NS;
    }
    /* Kernel time excluded (user space only) or a raised period: the interval is not what a sample marks. */
    atomic_store_explicit(&period_exact, kind->time_based && kernel_allowed && period == interval_ns,
                          memory_order_relaxed);
    const char *no_sigtrap = sigtrap_refusal();
    use_sigtrap = no_sigtrap == NULL;
    if (sigtrap_asked && no_sigtrap) log_warn("perf: features=sigtrap not used: %s", no_sigtrap);
    else if (no_sigtrap) log_info("perf: SIGTRAP delivery not used: %s", no_sigtrap);
    perf_hooks_take_modes();
    perf_hooks_allow_counting_on(counting_on() ? period : 0);
    set_test_slow_handlers();
    running = true;
    armed_total = skipped_fd_limit = open_failed = without_ring = rearmed_lost = lost_periods = 0;
    starts_since_sweep = 0;
    for (struct dirent *e; (e = readdir(dir)) != NULL;) {
        int tid = atoi(e->d_name);
        if (tid > 0) arm_thread(tid);
    }
    closedir(dir);
    size_t armed = thread_count;
    pthread_mutex_unlock(&lock);
    if (want_kernel && !kernel_allowed)
        log_warn("perf: kernel frames not allowed here (kernel.perf_event_paranoid=%d%s): sampling user space "
                 "only, as with alluser", paranoid_level(),
                 deny_for_test ? "; simulated: LIBPROF_TEST_DENY_PERF is set, a test-only switch" : "");
    char delivery[160];
    if (use_sigtrap) snprintf(delivery, sizeof(delivery), "SIGTRAP from the event (sigtrap)");
    else snprintf(delivery, sizeof(delivery), "signal %d by F_SETSIG", engine_profiling_signal());
    log_info("perf: event %s, period %llu %s, %s, %s, %s%s; %zu threads armed", kind->name, (unsigned long long)period,
             kind->time_based ? "ns" : "events", kernel_allowed ? "kernel call chains" : "user space only",
             counting_on() ? "counting on (one-shot where a handler outlasts a period)"
                 : "one-shot, re-armed by each handler",
             delivery, perf_fdtransfer_connected() ? ", opened by jprof's helper (fdtransfer)" : "", armed);
    if (armed == 0) {
        leave_helper();
        snprintf(err, errlen, "perf: no thread could be armed");
        running = false;
        if (use_sigtrap) release_guard();   /* no stop follows a failed start */
        use_sigtrap = false;
        return -1;
    }
    if (target_cpu >= 0)
        log_info("perf: counting on CPU %d only; a signal lost is not recovered (a thread elsewhere runs without "
                 "its event firing, so the watch cannot tell)", target_cpu);
    else if (kind->time_based) {
        uint64_t every = WATCH_STUCK_PERIODS * period;
        if (periodic_start(&watch, every > WATCH_MIN_NS ? (long)every : WATCH_MIN_NS, watch_events) != 0)
            log_warn("perf: cannot start the thread that re-arms events whose signal was lost: such threads "
                     "get no more samples");
    }
    return 0;
}

/* A time event that counts every nanosecond of the thread's CPU time weighs its interval exactly, which
 * spares the handler reading the thread's CPU clock (a system call) on every sample; otherwise (the time
 * a one-shot event spends disarmed, in the handler, is not counted) the CPU time since the last sample. */
static uint64_t perf_time_weight(const siginfo_t *info, uint64_t interval_ns) {
    (void)info;
    return atomic_load_explicit(&period_exact, memory_order_relaxed) ? interval_ns : 0;
}

/* A counted event (page faults...): each sample stands for 'interval' events. */
static uint64_t perf_count_weight(const siginfo_t *info, uint64_t interval) {
    (void)info;
    return interval;
}

static void perf_stop(void) {
    periodic_stop(&watch);
    pthread_mutex_lock(&lock);
    running = false;
    release_all();
    leave_helper();
    if (use_sigtrap) release_guard();
    use_sigtrap = false;
    if (skipped_fd_limit || open_failed || without_ring)
        log_warn("perf: of %llu threads, %llu not sampled for the descriptor limit, %llu not sampled for "
                 "other perf_event_open errors, %llu sampled without kernel frames",
                 (unsigned long long)(armed_total + skipped_fd_limit + open_failed),
                 (unsigned long long)skipped_fd_limit, (unsigned long long)open_failed,
                 (unsigned long long)without_ring);
    perf_hooks_modes modes = perf_hooks_take_modes();
    if (modes.turns)
        log_info("perf: %llu turns of a thread to one-shot (a handler of its took longer than the period: re-armed "
                 "after each handler), %llu returns to counting on (after enough handlers in a row under a "
                 "quarter of the period); %llu re-arms by handlers", (unsigned long long)modes.turns,
                 (unsigned long long)modes.returns, (unsigned long long)modes.rearms);
    if (rearmed_lost)
        log_info("perf: %llu times a thread ran 4 periods without a signal taken (merged into a pending one, or "
                 "blocked; one-shot events re-armed); "
                 "%llu samples lost with them (counted as signal_lost)",
                 (unsigned long long)rearmed_lost, (unsigned long long)lost_periods);
    pthread_mutex_unlock(&lock);
}

static void perf_thread_start(int tid) {
    pthread_mutex_lock(&lock);
    if (running) {
        /* A recycled tid may still have the event of the dead thread that had it before. */
        release_tid(tid);
        arm_thread(tid);
        if (++starts_since_sweep >= SWEEP_EVERY) {
            starts_since_sweep = 0;
            sweep_dead_threads();
        }
    }
    pthread_mutex_unlock(&lock);
}

static void perf_thread_end(int tid) {
    pthread_mutex_lock(&lock);
    release_tid(tid);
    pthread_mutex_unlock(&lock);
}

static int perf_move_signal(int signo) {
    int failed = 0;
    pthread_mutex_lock(&lock);
    if (use_sigtrap) {   /* the events signal with SIGTRAP: the profiling signal is not theirs */
        pthread_mutex_unlock(&lock);
        return 0;
    }
    /* Before any thread's one_shot is set: a handler about to return its thread to counting on looks again. */
    if (signo >= SIGRTMIN) perf_hooks_allow_counting_on(0);
    for (size_t i = 0; i < thread_count; i++) {
        if (fcntl(threads[i]->fd, F_SETSIG, signo) != 0) {
            failed++;
            continue;
        }
        /* Real-time signals queue (see counts_on): from now on one-shot, which REFRESH makes of an event that
         * counts on. A one-shot event's last signal may have reached the other party's handler, which does not
         * re-arm it. */
        if (signo >= SIGRTMIN) atomic_store(&threads[i]->one_shot, true);
        perf_hooks_arm(threads[i]);
    }
    pthread_mutex_unlock(&lock);
    return failed ? -1 : 0;
}

/* Both flavours share every function; they differ in what a sample stands for. */
#define PERF_ENGINE_FUNCTIONS                                                                                 \
    .check = perf_check, .start = perf_start, .stop = perf_stop, .thread_start = perf_thread_start,           \
    .thread_end = perf_thread_end

#define PERF_SIGNAL_FUNCTIONS                                                                                 \
    .kernel_frames = perf_hooks_kernel_frames, .begin_kernel_frames = perf_hooks_begin_kernel_frames,         \
    .after_sample = perf_hooks_after_sample, .move_signal = perf_move_signal, .check_owned = perf_check_owned,  \
    /* F_SETSIG delivery: POLL_HUP when the event disabled itself (one-shot, or a limit left), else POLL_IN; */ \
    /* sigtrap delivery: SIGTRAP with TRAP_PERF (which shares POLL_HUP's number: is_own looks at both) */      \
    .own_si_codes = {POLL_IN, POLL_HUP}, .is_own = perf_hooks_is_own

static const engine_signal_ops perf_time_signal = {.weight = perf_time_weight, PERF_SIGNAL_FUNCTIONS};
static const engine_signal_ops perf_count_signal = {.weight = perf_count_weight, PERF_SIGNAL_FUNCTIONS};

const engine engine_perf = {
    .name = "perf",
    .units = ENGINE_UNITS_NS,
    .default_interval = 10000000ULL,
    .signal = &perf_time_signal,
    PERF_ENGINE_FUNCTIONS,
};

/* A count of events: interval=, else each event's own default (perf_events.h; 1000 for none). */
static uint64_t perf_count_interval(const prof_options *o, bool first) {
    (void)first;   /* perf is always the session's first engine */
    const perf_event_kind *k = perf_events_find(o->event);
    if (!k && perf_events_is_native_function(o->event)) k = &breakpoint_kind;   /* every call */
    return o->interval_ns ? o->interval_ns : k && k->default_period ? k->default_period : 1000;
}

const engine engine_perf_count = {
    .name = "perf",
    .units = ENGINE_UNITS_EVENTS,
    .default_interval = 1000,
    .option_interval = perf_count_interval,
    .signal = &perf_count_signal,
    PERF_ENGINE_FUNCTIONS,
};
