/*
 * engine: one sampling engine (what interrupts threads and when). Every engine delivers its samples by
 * calling sample_signal_handler on the interrupted thread (or, for hooks and instrumentation, by
 * sample_store_event on the calling thread); the profiler owns the engines in use. A session runs one
 * engine per event kind it records (event_kind.h: event=cpu,wall runs a CPU engine and the wall engine);
 * the handler asks each, by is_own / own_si_codes, which one sent the signal, and records the sample as
 * that engine's event, weighed by that engine's weight hook.
 */
#ifndef LIBPROF_ENGINE_H
#define LIBPROF_ENGINE_H

#include "event_kind.h"
#include "options.h"
#include "traces.h"

#include <jni.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* What a sample's weight and an engine's interval are counted in. */
typedef enum { ENGINE_UNITS_NS, ENGINE_UNITS_BYTES, ENGINE_UNITS_CALLS, ENGINE_UNITS_EVENTS } engine_units;

/* How an engine's samples reach the store: from a signal it sends (its stack walked from the interrupted
 * registers), in a JVMTI callback or a Java call on the calling thread (Java frames only, nothing native
 * to walk), or in a hook on an imported function on the calling thread (native frames walked there; no
 * signal of its own to watch). */
typedef enum {
    ENGINE_DELIVERY_SIGNAL,
    ENGINE_DELIVERY_JVMTI_CALLBACK,
    ENGINE_DELIVERY_JAVA_CALL,
    ENGINE_DELIVERY_IMPORT_HOOK,
} engine_delivery;

/* What an engine that interrupts threads with its own signal adds to the interface. */
typedef struct engine_signal_ops {
    /* In signal handlers, async-signal-safe, may be NULL. weight: what this sample stands for, in units;
     * 0 (or no hook) means the thread's CPU time since its previous sample, which the handler reads.
     * kernel_frames writes the kernel call chain of the sample this signal reports (leaf first, at most
     * 'max') and returns how many; begin_kernel_frames (may be NULL), called before the handler walks the
     * user stack, marks where this sample's records end (later ones belong to the next) and starts loading
     * what kernel_frames will read. after_sample runs at the end of every handler invocation, taken or
     * dropped, e.g. to re-arm a one-shot event. */
    uint64_t (*weight)(const siginfo_t *info, uint64_t interval_ns);
    int (*kernel_frames)(const siginfo_t *info, uintptr_t *out, int max);
    void (*begin_kernel_frames)(const siginfo_t *info);
    void (*after_sample)(const siginfo_t *info);
    /* thread_state (may be NULL: THREAD_STATE_DEFAULT, as for CPU samples): the interrupted thread's state
     * (thread_state.h), from the signal's registers, the thread's JavaThread where it has one (env), and
     * its stack as just taken (leaf first). */
    int (*thread_state)(const siginfo_t *info, const void *ucontext, JNIEnv *env, const trace_frame *frames,
                        uint32_t depth);
    /* stored (may be NULL): the sample this signal took went to 'ref' (trace_store_put; TRACE_STORE_NO_REF
     * when it was dropped), so the engine can repeat it later without a signal (trace_store_repeat). */
    void (*stored)(const siginfo_t *info, const trace_key *key, uint64_t ref);

    /* The signal and who owns it. own_si_codes: the si_code values the engine's own signals carry
     * (verified on Linux 6.x); a signal with any other code was sent by someone else (kill: SI_USER,
     * sigqueue: SI_QUEUE, tgkill: SI_TKILL, an itimer of the application's: SI_KERNEL) and is not a
     * sample. move_signal (NULL: the signal is fixed, itimer) sends the engine's signals as signo from now
     * on, for every thread armed and to be armed, its handler installed already: 0, or -1 when some
     * threads could not be moved. check_owned (may be NULL): 0 while the engine's timer and signal are still
     * its own, -1 with the reason (and what became of the samples) once another party re-armed its timer (a
     * process-wide ITIMER_PROF) or took SIGTRAP from its sigtrap events (perf, which then signals as by
     * default). Outside handlers. */
    int own_si_codes[2];
    /* is_own (may be NULL: own_si_codes decide): for engines whose signals carry a code others can send too
     * (the wall engine's are queued with SI_QUEUE, like sigqueue's): true when this signal is the engine's
     * own, e.g. by a value only the engine puts in si_value. In handlers. */
    bool (*is_own)(const siginfo_t *info);
    int (*move_signal)(int signo);
    int (*check_owned)(char *why, size_t errlen);
} engine_signal_ops;

typedef struct engine {
    const char *name;
    event_kind event;                   /* what its samples are recorded as */
    engine_units units;                 /* of the sample weight and the interval */
    const char *counts;                 /* what a sample and its weight stand for, said in the outputs; may be NULL */
    const char *live_counts;            /* the same when only objects still reachable are kept (alloc,live); may be NULL */
    uint64_t default_interval;          /* in units */
    engine_delivery delivery;
    /* A JVMTI callback engine whose stacks are walked like a signal's from the callback's caller, native
     * frames included (alloc_stack.h), with the session's cstack. */
    bool walks_from_callback;
    /* The interval the options give this engine (may be NULL: interval= for the session's first engine,
     * the engine's own option for one beside it, else default_interval). 'first': the session's event=. */
    uint64_t (*option_interval)(const prof_options *o, bool first);

    /* Outside signal handlers. check: 0 when the engine could run here with these options, else -1 with
     * the reason in err; it changes nothing (a session may be running). start a session with the options
     * and the interval (in units), stop it; per-thread engines arm and disarm threads as the JVM reports
     * them (may be NULL). */
    int (*check)(const prof_options *o, char *err, size_t errlen);
    /* at_load (may be NULL): a session given at JVM start-up starts at VMInit, when the JVM's first threads
     * have run already; what must be set before they run is set here, in Agent_OnLoad, with the interval
     * start will get. Its failure is start's to report. */
    void (*at_load)(uint64_t interval);
    int (*start)(const prof_options *o, uint64_t interval, char *err, size_t errlen);
    void (*stop)(void);
    void (*thread_start)(int tid);
    void (*thread_end)(int tid);

    /* The members only engines that deliver by signal have (ENGINE_DELIVERY_SIGNAL); NULL for the others. */
    const struct engine_signal_ops *signal;

    /* Outside handlers, under the session lock, when a text, collapsed or HTML profile of this engine's
     * event is written (may be NULL, or return NULL): an engine that decides what counts only then
     * (alloc,live: the sampled objects still reachable) gives a table of its own to read instead of the
     * session's. */
    trace_table *(*dump_table)(void);
    /* Outside handlers, under the session lock, when the session's JFR recording is about to end (its last
     * chunk still open; may be NULL): events that exist only then (alloc,live: the objects still reachable,
     * out_jfr_live_object). */
    void (*recording_end)(void);
} engine;

/* True when the signal described by info was raised by engine e itself. Async-signal-safe. */
static inline bool engine_signal_is_own(const engine *e, const siginfo_t *info) {
    if (!e || !info) return false;
    const engine_signal_ops *s = e->signal;
    if (!s) return false;
    if (s->is_own) return s->is_own(info);
    return info->si_code == s->own_si_codes[0] || info->si_code == s->own_si_codes[1];
}

extern const engine engine_ctimer;
extern const engine engine_itimer;
extern const engine engine_perf;         /* time events (cpu-clock, task-clock): weights in ns */
extern const engine engine_perf_count;   /* counted events (page-faults...): weights in events */
extern const engine engine_instrument;   /* Java methods by bytecode instrumentation: no signals, units calls */
extern const engine engine_trace;        /* slow calls of traced methods (trace=): weights in ns */
extern const engine engine_wall;         /* every thread at a wall-clock interval, with its state */
extern const engine engine_alloc;        /* JVMTI allocation sampling: no signals, weights in bytes */
extern const engine engine_lock;         /* JVMTI contended monitor events: no signals, weights in ns waited */
extern const engine engine_nativemem;    /* allocation functions hooked in import tables: units bytes */
extern const engine engine_nativelock;   /* pthread lock functions hooked in import tables: units ns waited */

/* True when the engine's weights are time (ns) rather than a count of events or calls. */
static inline bool engine_weighs_time(const engine *e) {
    return e->units == ENGINE_UNITS_NS;
}

/* The units as the outputs spell them. */
static inline const char *engine_units_name(engine_units u) {
    static const char *const names[] = {[ENGINE_UNITS_NS] = "ns", [ENGINE_UNITS_BYTES] = "bytes",
                                        [ENGINE_UNITS_CALLS] = "calls", [ENGINE_UNITS_EVENTS] = "events"};
    return (unsigned)u < sizeof(names) / sizeof(names[0]) ? names[u] : "ns";
}

/* Stacks of this engine's samples include native frames walked by libprof (signals and import hooks, and
 * JVMTI callbacks that walk from their caller). */
static inline bool engine_walks_native(const engine *e) {
    return e->delivery == ENGINE_DELIVERY_SIGNAL || e->delivery == ENGINE_DELIVERY_IMPORT_HOOK ||
           e->walks_from_callback;
}

#endif
