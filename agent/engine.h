/*
 * engine: one sampling engine (what interrupts threads and when). Every engine delivers its samples by
 * calling sample_signal_handler on the interrupted thread; the profiler owns the engine in use.
 */
#ifndef LIBPROF_ENGINE_H
#define LIBPROF_ENGINE_H

#include "options.h"

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct engine {
    const char *name;
    const char *units;                  /* unit of the sample weight */
    uint64_t default_interval_ns;
    bool timer_overruns;                /* signals are POSIX timer signals whose si_overrun counts expiries */
    /* 0 when the engine can run here, else -1 with the reason in err. */
    int (*check)(char *err, size_t errlen);
    int (*start)(uint64_t interval_ns, char *err, size_t errlen);
    void (*stop)(void);
    /* Per-thread engines arm and disarm threads as the JVM reports them; may be NULL. */
    void (*thread_start)(int tid);
    void (*thread_end)(int tid);
    /* Signal-path hooks, may be NULL; async-signal-safe. kernel_frames writes the kernel call chain of
     * the sample this signal reports (leaf first, at most 'max') and returns how many. after_sample runs
     * at the end of every handler invocation, taken or dropped, e.g. to re-arm a one-shot event. */
    int (*kernel_frames)(const siginfo_t *info, uintptr_t *out, int max);
    void (*after_sample)(const siginfo_t *info);
    /* A sample stands for 'interval' events (page faults...), not for the CPU time since the last one. */
    bool counts_events;
    /* May be NULL; async-signal-safe. True when, in the running session, every sample marks exactly
     * 'interval' ns of the thread's counted CPU time (an event counting kernel and user time alike; the
     * time a one-shot event spends disarmed, in the handler, is not counted): the handler then weighs it
     * by the interval instead of reading the thread's CPU clock, a system call it spares on every sample. */
    bool (*interval_is_cpu_time)(void);
    /* Samples are taken in Java code on the calling thread (instrumentation): no native frames to walk. */
    bool java_only;
    /* The si_code values the engine's own signals carry (verified on Linux 6.x): a signal with any other
     * code was sent by someone else (kill: SI_USER, sigqueue: SI_QUEUE, tgkill: SI_TKILL, an itimer of
     * the application's: SI_KERNEL) and is not a sample. */
    int own_si_codes[2];
    /* May be NULL (the engine's signal is fixed: itimer). Sends the engine's signals as signo from now on,
     * for every thread armed and to be armed; its handler is installed already. 0, or -1 when some threads
     * could not be moved. Outside signal handlers. */
    int (*move_signal)(int signo);
    /* May be NULL. 0 while the engine's timer is still its own; -1 with the reason once another party
     * re-armed it (a process-wide ITIMER_PROF). Outside signal handlers. */
    int (*check_owned)(char *why, size_t errlen);
} engine;

/* True when the signal described by info was raised by engine e itself. Async-signal-safe. */
static inline bool engine_signal_is_own(const engine *e, const siginfo_t *info) {
    return e && info && (info->si_code == e->own_si_codes[0] || info->si_code == e->own_si_codes[1]);
}

extern const engine engine_ctimer;
extern const engine engine_itimer;
extern const engine engine_perf;         /* time events (cpu-clock, task-clock): weights in ns */
extern const engine engine_perf_count;   /* counted events (page-faults...): weights in events */
extern const engine engine_instrument;   /* Java methods by bytecode instrumentation: no signals, units calls */

/* Which perf event the perf engines open and whether kernel frames are wanted; before check/start. */
void engine_perf_configure(const char *event, bool alluser);

/* The method target (method_target.h) the instrumentation engine selects; before check/start. */
void engine_instrument_configure(const char *event);

/* Picks the engine for o->event (and o->alluser): 'cpu' takes the best one that passes its check (perf,
 * ctimer, itimer); a perf event name takes perf or nothing; a method target
 * (pkg.Class.method) the instrumentation engine. With 'verbose', logs the choice and why the
 * better ones could not run. Returns NULL with the reason in err when none can run. */
const engine *engine_choose(const prof_options *o, bool verbose, char *err, size_t errlen);

/* The signal profiling uses: SIGPROF, unless the application already handles SIGPROF itself, in which
 * case a real-time signal it does not use (logged). Decided at the first call. */
int engine_profiling_signal(void);

/* Installs the profiling signal handler for signo once; later calls do nothing. Returns -1 on failure. */
int engine_install_handler(int signo);

/* True while signo's disposition is still our profiling signal handler. */
bool engine_handler_installed(int signo);

/* Another party took the profiling signal: makes a free real-time signal the profiling signal, with our
 * handler installed. Returns it, or -1 when none is free. The caller moves the engine (move_signal). */
int engine_move_signal(void);

#endif
