/*
 * [signal-safe] sample: what happens when a profiling signal arrives. Takes the stack into a preallocated
 * buffer (stack.h), weighs the sample by the thread CPU time it stands for, stores it (trace_store.h), and
 * counts every sample it could not take by reason. The handler and the recording calls are
 * signal/sample.c; configuring, switching on and off and reading the counters, which the profiler does
 * outside handlers, are sample_setup.c.
 */
#ifndef LIBPROF_SAMPLE_H
#define LIBPROF_SAMPLE_H

#include "asgct.h"
#include "options.h"
#include "engine.h"
#include "frame.h"
#include "trace_store.h"
#include "walk_vm.h"

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

/* Deepest native part of a stack (leaf side, below the Java frames). */
#define SAMPLE_MAX_NATIVE_FRAMES 256

typedef enum {
    DROP_BUFFER_BUSY = 0,   /* every stack buffer was in use by other handlers */
    DROP_TABLE_FULL,        /* too many distinct stacks */
    DROP_FRAMES_FULL,       /* the frame arena is full */
    DROP_RING_FULL,         /* jfr: the record queue to the writer thread is full */
    DROP_LIVE_FULL,         /* alloc,live: too many sampled objects alive to track another */
    /* the perf engine's signal never reached our handler (merged into a pending signal of the same number,
     * or blocked by the thread): the periods of CPU time the thread ran without a signal taken, counted by
     * the engine's watch (which also re-arms the event where it is one-shot) */
    DROP_SIGNAL_LOST,
    DROP_OUTSIDE_WINDOW,    /* begin=/end=, ttsp: taken outside every window (sample_window.h) */
    DROP_RATE_LIMITED,      /* ratelimit=: over its category's budget of events this second (rate_limit.h) */
    DROP_REASON_COUNT
} drop_reason;

typedef struct {
    uint64_t signals;                    /* handler invocations while active */
    uint64_t stored;                     /* samples stored */
    uint64_t dropped[DROP_REASON_COUNT];
    uint64_t markers[MARKER_COUNT];      /* samples stored as a marker frame, by marker */
    uint64_t vm_fallbacks[VMWALK_REASON_COUNT]; /* cstack=vm: samples stitched instead, by reason */
    uint64_t vm_self_named;              /* cstack=vm: samples whose Java frames the walker named itself */
    uint64_t foreign;                    /* profiling signals ignored: not sent by the engine (kill...) */
} sample_counters;

/* Engines one session runs at once: one per event kind at most. */
#define SAMPLE_MAX_ENGINES EVENT_KIND_COUNT

typedef struct {
    JavaVM *vm;
    asgct_fn asgct;
    int max_depth;           /* jstackdepth */
    uint64_t interval_ns;    /* the first engine's interval (engines[0]) */
    bool java_tids_complete; /* a thread outside java_tids runs no Java code (see java_tids.h) */
    prof_cstack cstack;      /* how native frames are walked */
    bool agct;               /* features=agct: cstack=vm takes its Java frames from AsyncGetCallTrace */
    const engine *engine;    /* the session's first engine (event=), engines[0]; may be NULL */
    /* record-cpu: the engine (a perf one) whose samples end in a FRAME_CPU root, the CPU the handler runs
     * on; NULL for none */
    const engine *cpu_frame_engine;
    /* Every engine of the session (the first is 'engine') with its interval: the weight hook's interval,
     * and the weight of a thread's first CPU sample. A signal belongs to the first engine that owns it. */
    int engine_count;
    const engine *engines[SAMPLE_MAX_ENGINES];
    uint64_t intervals[SAMPLE_MAX_ENGINES];
    bool vtable;             /* features=vtable: a sample in a vtable or itable stub names the receiver's class */
    bool comp_task;          /* features=comptask: compiler threads' samples name the method being compiled */
    int cut_depth;           /* jstackdepth=N/M: M (a stack of N frames or more keeps M under [truncated]);
                                0: it keeps N, unmarked */
} sample_config;

/* Kernel frames kept per sample, on the leaf side of the Java frames. */
#define SAMPLE_MAX_KERNEL_FRAMES 128

/* Signal-safe, from here on (signal/sample.c). Records the calling thread's JNIEnv for the handler (NULL
 * when the thread ends). Call on the thread. */
void sample_set_thread_env(JNIEnv *env);

/* Recording on the calling thread outside signal handlers (the instrumentation engine, allocation and lock
 * hooks). Every sample_enter is paired with sample_leave, which lets stop wait for recordings under way;
 * sample_enter returns false when profiling is off, and then nothing may be stored. Between the two,
 * sample_store stores a stack (leaf first) into the session's storage as a sample of the first engine's
 * event (EVENT_CPU for instrumentation) and counts it like a signal sample; sample_store_event stores it as
 * a sample of 'event' in thread state 'state' (thread_state.h; 0 when it has none), worth 'weight' in that
 * event's units (bytes allocated, ns waited). 'started' is a sample_cost_now() reading taken when the
 * recording began. Async-signal-safe. */
bool sample_enter(void);
void sample_leave(void);
void sample_store(const trace_frame *frames, uint32_t depth, uint64_t weight, uint64_t started);
/* Counts a sample that could not be kept, outside the storage (e.g. DROP_LIVE_FULL). */
void sample_count_drop(drop_reason r);
void sample_store_event(event_kind event, int state, const trace_frame *frames, uint32_t depth, uint64_t weight,
                        uint64_t started);
/* A lock sample (EVENT_LOCK) worth 'weight' ns that waited 'waited' ns itself (lock_sample.h: a short wait
 * stands for more): its JFR event's duration is the wait. */
void sample_store_wait(const trace_frame *frames, uint32_t depth, uint64_t weight, uint64_t waited, uint64_t started);
/* An allocation sample (EVENT_ALLOC) worth 'weight' bytes of an object of 'size' bytes (its JFR event's
 * allocationSize). */
void sample_store_alloc(const trace_frame *frames, uint32_t depth, uint64_t weight, uint64_t size, uint64_t started);
/* A traced call (EVENT_TRACE) worth 'weight' ns that took 'took' ns itself and returned at 'ended' (an
 * event_clock_now() reading): its JFR event's duration and end. */
void sample_store_call(const trace_frame *frames, uint32_t depth, uint64_t weight, uint64_t took, uint64_t ended,
                       uint64_t started);
/* A sample the wall engine's timer thread counted again without a signal (trace_store_repeat's result,
 * not TRACE_STORE_STALE): counted as stored, or dropped by reason. */
void sample_count_repeat(int trace_store_result);
/* For a sample an engine stores itself (the wall engine's repeats): whether ratelimit= lets one more event
 * of 'event' in this second; when not, the sample is counted as taken and dropped (DROP_RATE_LIMITED). */
bool sample_rate_admits(event_kind event);
/* Samples an engine knows were lost before any handler ran (DROP_SIGNAL_LOST): counted as dropped. */
void sample_count_lost(drop_reason reason, uint64_t samples);

/* jstackdepth of the session; the calling thread's OS id (cached per thread). */
int sample_max_depth(void);
/* Bounds a stack the session recorded outside the handler as the handler bounds its own
 * (frame_bound_stack with jstackdepth=N/M). Returns the new depth. */
uint32_t sample_bound_stack(trace_frame *frames, uint32_t depth);
uint32_t sample_thread_id(void);

/* Recording at a call of a hooked function (native memory and lock hooks, signal/native_hooks.c), on the
 * calling thread, outside any signal handler but with the same rules: the stack is walked from the
 * registers of the hook's caller (pc: the return address into it, sp and fp at that point) and 'leaf', a
 * native pc such as the hooked function's own address, is put on top when not 0. The sample is of 'event'
 * (EVENT_NATIVEMEM, EVENT_NATIVELOCK), worth 'weight', its record carrying 'native'. Returns true when the
 * stack was stored, with *ref naming it for trace_store_subtract (leak detection; may be NULL).
 * Async-signal-safe; stop waits for recordings under way like for handlers. */
typedef struct {
    uintptr_t pc, sp, fp;
    uint64_t leaf;
} sample_call_site;
bool sample_record_call(const sample_call_site *site, event_kind event, uint64_t weight,
                        const trace_store_native *native, uint64_t *ref);
/* The walk of sample_record_call alone, into the caller's buffers: the calling thread's stack from 'site'
 * (site->leaf is not put on top), native and Java frames as in a signal sample, with the session's cstack
 * and jstackdepth; env is the thread's JNIEnv (NULL: no Java frames). raw holds jstackdepth entries, out
 * sample_call_frames(). Returns the depth. For a caller outside handlers that stores the stack itself (a
 * JVMTI callback on the allocating thread). */
size_t sample_call_frames(void);
uint32_t sample_walk_call(const sample_call_site *site, JNIEnv *env, asgct_frame *raw, trace_frame *out);
/* Queues a free of 'address' (no stack) as an 'event' record for the JFR writer, when one runs. */
void sample_record_free(event_kind event, uint64_t address);

/* The SIGPROF handler the engines install. */
void sample_signal_handler(int signo, siginfo_t *info, void *ucontext);

#endif
