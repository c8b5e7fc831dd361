/*
 * engine_signals: the signals the signal engines (ctimer, itimer, perf, wall) deliver samples with, and
 * the one handler they share. Outside signal handlers unless said.
 */
#ifndef LIBPROF_ENGINE_SIGNALS_H
#define LIBPROF_ENGINE_SIGNALS_H

#include <stdbool.h>
#include <stdint.h>

/* The signal profiling uses: SIGPROF, unless the application already handles SIGPROF itself, in which
 * case a real-time signal it does not use (logged). Decided at the first call. */
int engine_profiling_signal(void);

/* Installs the profiling signal handler for signo once; later calls do nothing. Returns -1 on failure. */
int engine_install_handler(int signo);

/* Installs our handler for signo again even if it was installed before and replaced since (SIGTRAP, whose
 * guard hands it back to the application at the end of a session). Returns -1 on failure. */
int engine_retake_handler(int signo);

/* True while signo's disposition is still our profiling signal handler. */
bool engine_handler_installed(int signo);

/* Another party took the profiling signal: makes a free real-time signal the profiling signal, with our
 * handler installed. Returns it, or -1 when none is free. The caller moves the engine (move_signal). */
int engine_move_signal(void);

/* A real-time signal of its own, with our handler installed, for an engine that queues its signals to
 * threads (wall: sigqueue-style values) while another engine uses the profiling signal: real-time signals
 * queue, so neither engine's signal can merge with the other's and be lost (two deliveries of a standard
 * signal pending together are one). Chosen once, never the profiling signal, and never taken by
 * engine_move_signal. -1 when no real-time signal is free. */
int engine_queued_signal(void);

/* Thread tid's CPU clock in ns (of any thread of the process; a system call), 0 when it has ended. */
uint64_t engine_thread_cpu_ns(int tid);

#endif
