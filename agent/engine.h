/*
 * engine: one sampling engine (what interrupts threads and when). Every engine delivers its samples by
 * calling sample_signal_handler on the interrupted thread; the profiler owns the engine in use.
 */
#ifndef LIBPROF_ENGINE_H
#define LIBPROF_ENGINE_H

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
} engine;

extern const engine engine_ctimer;
extern const engine engine_itimer;

/* Picks the engine for an event name: 'cpu' takes the best one that passes its check. With 'verbose', logs
 * the choice and why. Returns NULL with the reason in err when none can run. */
const engine *engine_choose(const char *event, bool verbose, char *err, size_t errlen);

/* The signal profiling uses: SIGPROF, unless the application already handles SIGPROF itself, in which
 * case a real-time signal it does not use (logged). Decided at the first call. */
int engine_profiling_signal(void);

/* Installs the profiling signal handler for signo once; later calls do nothing. Returns -1 on failure. */
int engine_install_handler(int signo);

#endif
