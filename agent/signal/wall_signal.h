/*
 * [signal-safe] wall_signal: the wall engine's half in signal handlers. The engine's timer thread
 * (engine_wall.c) queues the profiling signal to each thread with rt_tgsigqueueinfo, code SI_QUEUE, and a
 * value that is the session's random cookie (high 32 bits) and the thread's slot (low 32 bits): SI_QUEUE
 * is what sigqueue sends too, so the cookie, with our own pid as sender, is how the handler tells our
 * signal from anyone else's. The handler records in the slot where the sample went (trace_store's
 * reference) and the thread's CPU clock after it, so the timer thread can repeat that sample for a thread
 * that has not run since, without waking it. The timer visits a bounded number of threads per interval, so
 * a sample stands for the time since the thread's previous visit: the slot's weight_ns, set before sending.
 */
#ifndef LIBPROF_WALL_SIGNAL_H
#define LIBPROF_WALL_SIGNAL_H

#include "thread_state_read.h"
#include "traces.h"

#include <jni.h>

#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* One sampled thread, owned by the timer thread; 'ref', 'state' and 'cpu_after_ns' are written by the
 * thread's own handler (ref last, with release). */
typedef struct {
    _Atomic uint64_t ref;            /* the last sample (trace_store_put); TRACE_STORE_NO_REF: none */
    _Atomic uint32_t state;          /* its thread_state */
    _Atomic uint32_t answered;       /* signals the handler has taken (sent == answered: none pending) */
    _Atomic uint64_t cpu_after_ns;   /* the thread's CPU clock when its handler finished */
    _Atomic uint64_t weight_ns;      /* what the signal sent stands for: the wall time since the thread's last visit */
    uint32_t tid;                    /* timer thread only: 0 = free */
    uint32_t seen;                   /* timer thread only: the last round the thread was listed in */
    uint32_t sent;                   /* timer thread only: signals sent */
    uint32_t missed;                 /* timer thread only: visits that passed while a signal was pending */
    uint64_t missed_ns;              /* timer thread only: the wall time those visits stood for */
    uint64_t visited_ns;             /* timer thread only: the last visit (monotonic clock); 0: none yet */
} wall_slot;

typedef struct {
    wall_slot *slots;                /* preallocated by the timer thread's half */
    uint32_t capacity;
    _Atomic uint32_t cookie;         /* this session's; 0 while none runs */
    pid_t pid;
    uint64_t interval_ns;
    _Atomic uint64_t unslotted_weight_ns;   /* the weight of a signal sent without a slot (beyond the capacity) */
} wall_shared;
extern wall_shared wall;

/* Hooks of engine_wall (engine.h). */
bool wall_signal_is_own(const siginfo_t *info);
uint64_t wall_signal_weight(const siginfo_t *info, uint64_t interval_ns);
int wall_signal_thread_state(const siginfo_t *info, const void *ucontext, JNIEnv *env, const trace_frame *frames,
                             uint32_t depth);
void wall_signal_stored(const siginfo_t *info, const trace_key *key, uint64_t ref);

#endif
