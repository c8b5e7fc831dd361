/*
 * [signal-safe] sample: the handler body. Stack buffers come from a small preallocated pool claimed by
 * atomic exchange, so concurrent handlers on different threads never share one and never wait: a handler
 * that finds none free drops its sample and counts it. The stack is assembled by stack.c and stored by
 * trace_store.c; sample_setup.c prepares the state.
 */
#define _GNU_SOURCE
#include "sample.h"

#include "arch.h"
#include "clock_ns.h"
#include "java_tids.h"
#include "rate_limit.h"
#include "safe_read.h"
#include "sample_cost.h"
#include "sample_state.h"
#include "sample_window.h"
#include "self_tid.h"
#include "stack.h"
#include "thread_filter.h"
#include "trace_store.h"

#include <errno.h>
#include <sched.h>
#include <stdatomic.h>
#include <stddef.h>
#include <string.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

sample_state sampling = {.generation = 1};

/* Initial-exec TLS: a fixed offset from the thread pointer, so reading it never allocates. */
static __thread struct {
    uint32_t generation;
    uint64_t last_cpu_ns;
    uint32_t tid;   /* cached: gettid is a system call, and system calls are slow on virtual machines */
    JNIEnv *env;    /* set when the JVM reported this thread (ThreadStart/VMInit), cleared at ThreadEnd */
} thread_clock __attribute__((tls_model("initial-exec")));

void sample_set_thread_env(JNIEnv *env) {
    thread_clock.env = env;
}

/* The JNIEnv of the interrupted thread, or NULL for threads that run no Java. JNI GetEnv is called only
 * for threads known to be initialised Java threads: on a thread the JVM is still setting up, it touches
 * libjvm's thread-local storage for the first time, which makes glibc allocate (malloc) inside our
 * handler; if the thread was interrupted inside malloc, that deadlocks. */
static JNIEnv *thread_env(uint32_t tid) {
    JavaVM *vm = sampling.config.vm;
    /* A session started before the process had a JVM walks no Java frames, though the JVM created since
     * reports its threads. */
    if (!vm) return NULL;
    if (thread_clock.env) return thread_clock.env;
    JNIEnv *env = NULL;
    if (java_tids_contains((int)tid) && (*vm)->GetEnv(vm, (void **)&env, JNI_VERSION_1_6) == JNI_OK)
        thread_clock.env = env;
    return thread_clock.env;
}

static uint32_t current_tid(void) {
    if (!thread_clock.tid) thread_clock.tid = (uint32_t)self_tid();
    return thread_clock.tid;
}

static int claim_buffer(uint32_t tid) {
    for (int i = 0; i < SAMPLE_BUFFER_COUNT; i++) {
        int b = (int)((tid + (uint32_t)i) % SAMPLE_BUFFER_COUNT);
        if (atomic_exchange_explicit(&sampling.buffer_busy[b], 1, memory_order_acquire) == 0) return b;
    }
    return -1;
}

/* What this sample stands for: the engine says (weight hook), or else it is the thread's CPU time since
 * its previous sample, which stays right when the kernel coalesces timer expiries at tick granularity. */
static uint64_t weight_of_sample(const engine *e, uint64_t interval_ns, const siginfo_t *info) {
    uint64_t weight = e->signal && e->signal->weight ? e->signal->weight(info, interval_ns) : 0;
    if (weight) return weight;
    uint64_t now = clock_ns(CLOCK_THREAD_CPUTIME_ID);
    if (!now) return interval_ns;
    uint32_t gen = atomic_load_explicit(&sampling.generation, memory_order_relaxed);
    weight = interval_ns;
    if (thread_clock.generation == gen && now > thread_clock.last_cpu_ns) weight = now - thread_clock.last_cpu_ns;
    thread_clock.generation = gen;
    thread_clock.last_cpu_ns = now;
    return weight;
}

static void count(_Atomic uint64_t *counter) {
    atomic_fetch_add_explicit(counter, 1, memory_order_relaxed);
}

static void count_marker_frames(const trace_frame *frames, uint32_t depth) {
    for (uint32_t i = 0; i < depth; i++) {
        if (frames[i].kind == FRAME_MARKER && frames[i].id < MARKER_COUNT) count(&sampling.markers[frames[i].id]);
    }
}

static void count_result(trace_store_result r) {
    static const drop_reason drops[] = {[TRACE_STORE_TABLE_FULL] = DROP_TABLE_FULL,
                                        [TRACE_STORE_FRAMES_FULL] = DROP_FRAMES_FULL,
                                        [TRACE_STORE_RING_FULL] = DROP_RING_FULL,
                                        [TRACE_STORE_STALE] = DROP_TABLE_FULL};
    if (r == TRACE_STORE_STORED) count(&sampling.stored);
    else count(&sampling.dropped[drops[r]]);
}

void sample_count_repeat(int r) {
    count(&sampling.signals);
    count_result((trace_store_result)r);
}

bool sample_rate_admits(event_kind event) {
    if (rate_limit_allow(event)) return true;
    count(&sampling.signals);
    count(&sampling.dropped[DROP_RATE_LIMITED]);
    return false;
}

void sample_count_lost(drop_reason reason, uint64_t samples) {
    if ((unsigned)reason < DROP_REASON_COUNT && samples)
        atomic_fetch_add_explicit(&sampling.dropped[reason], samples, memory_order_relaxed);
}

/* Stores one stack of thread 'tid', and counts the outcome and its cost ('started': a sample_cost_now()
 * reading). */
static uint64_t store_stack(const trace_frame *frames, uint32_t depth, const trace_key *key, uint64_t weight,
                            const trace_store_native *native, uint64_t started) {
    uint64_t ref = TRACE_STORE_NO_REF;
    trace_store_result r = trace_store_put_native(frames, depth, key, weight, native, &ref);
    count_result(r);
    if (r == TRACE_STORE_STORED) count_marker_frames(frames, depth);
    sample_cost_record(depth, sample_cost_now() - started);
    return ref;
}

bool sample_enter(void) {
    atomic_fetch_add(&sampling.in_flight, 1);
    return atomic_load(&sampling.active);
}

void sample_leave(void) {
    atomic_fetch_sub(&sampling.in_flight, 1);
}

void sample_count_drop(drop_reason r) {
    if ((unsigned)r < DROP_REASON_COUNT) count(&sampling.dropped[r]);
}

int sample_max_depth(void) {
    return sampling.config.max_depth;
}

uint32_t sample_bound_stack(trace_frame *frames, uint32_t depth) {
    return frame_bound_stack(frames, depth, (uint32_t)sampling.config.max_depth, (uint32_t)sampling.config.cut_depth);
}

uint32_t sample_thread_id(void) {
    return current_tid();
}

static void store_event(event_kind event, int state, const trace_frame *frames, uint32_t depth, uint64_t weight,
                        const trace_store_native *native, uint64_t started) {
    if (!thread_filter_allows((int)current_tid())) return;
    count(&sampling.signals);
    if (!rate_limit_allow(event)) {
        count(&sampling.dropped[DROP_RATE_LIMITED]);
        return;
    }
    trace_key key = {current_tid(), (uint8_t)event, (uint8_t)state};
    store_stack(frames, depth, &key, weight, native, started);
}

void sample_store_event(event_kind event, int state, const trace_frame *frames, uint32_t depth, uint64_t weight,
                        uint64_t started) {
    store_event(event, state, frames, depth, weight, NULL, started);
}

void sample_store_wait(const trace_frame *frames, uint32_t depth, uint64_t weight, uint64_t waited, uint64_t started) {
    trace_store_native wait = {0, waited};
    store_event(EVENT_LOCK, 0, frames, depth, weight, &wait, started);
}

void sample_store_alloc(const trace_frame *frames, uint32_t depth, uint64_t weight, uint64_t size, uint64_t started) {
    trace_store_native object = {0, size};
    store_event(EVENT_ALLOC, 0, frames, depth, weight, &object, started);
}

void sample_store_call(const trace_frame *frames, uint32_t depth, uint64_t weight, uint64_t took, uint64_t ended,
                       uint64_t started) {
    trace_store_native call = {ended, took};
    store_event(EVENT_TRACE, 0, frames, depth, weight, &call, started);
}

void sample_store(const trace_frame *frames, uint32_t depth, uint64_t weight, uint64_t started) {
    const engine *e = sampling.config.engine;
    sample_store_event(e ? e->event : EVENT_CPU, 0, frames, depth, weight, started);
}

/* The index of the session's engine that sent this signal, or -1 when none did (kill, sigqueue...). */
static int owning_engine(const sample_config *config, const siginfo_t *info) {
    for (int i = 0; i < config->engine_count; i++)
        if (engine_signal_is_own(config->engines[i], info)) return i;
    return -1;
}

/* Taken or not, a one-shot engine must re-arm, or this thread is never sampled again: the owner's hook, or
 * every engine's for a signal none claims. */
static void after_sample(const sample_config *config, int owner, const siginfo_t *info) {
    for (int i = 0; i < config->engine_count; i++) {
        const engine *e = config->engines[i];
        if ((owner < 0 || owner == i) && e->signal && e->signal->after_sample) e->signal->after_sample(info);
    }
}

size_t sample_call_frames(void) {
    return sample_frames_per_buffer(sampling.config.max_depth);
}

uint32_t sample_walk_call(const sample_call_site *site, JNIEnv *env, asgct_frame *raw, trace_frame *out) {
    /* The walkers and AsyncGetCallTrace read the three registers a frame-pointer or DWARF step needs; the
     * rest of the context stays zero. No getcontext: it makes a system call (the signal mask) per sample. */
    ucontext_t uc;
    memset(&uc.uc_mcontext, 0, sizeof(uc.uc_mcontext));
    arch_uc_set_frame(&uc, site->pc, site->sp, site->fp);
    return stack_collect(NULL, NULL, &uc, env, current_tid(), raw, out);
}

bool sample_record_call(const sample_call_site *site, event_kind event, uint64_t weight,
                        const trace_store_native *native, uint64_t *ref) {
    bool stored = false;
    atomic_fetch_add(&sampling.in_flight, 1);
    if (!atomic_load(&sampling.active)) goto out;
    count(&sampling.signals);
    if (!rate_limit_allow(event)) {
        count(&sampling.dropped[DROP_RATE_LIMITED]);
        goto out;
    }
    uint64_t started = sample_cost_now();
    uint32_t tid = current_tid();
    int b = claim_buffer(tid);
    if (b < 0) {
        count(&sampling.dropped[DROP_BUFFER_BUSY]);
        goto out;
    }
    const sample_config *config = &sampling.config;
    asgct_frame *raw = sampling.asgct_buffers + (size_t)b * config->max_depth;
    trace_frame *frames = sampling.frame_buffers + (size_t)b * sample_frames_per_buffer(config->max_depth);
    uint32_t depth = 0;
    if (site->leaf) frames[depth++] = (trace_frame){site->leaf, 0, FRAME_NATIVE};
    depth += sample_walk_call(site, thread_env(tid), raw, frames + depth);
    trace_key key = {tid, (uint8_t)event, 0};
    trace_store_result r = trace_store_put_native(frames, depth, &key, weight, native, ref);
    count_result(r);
    if ((stored = r == TRACE_STORE_STORED)) count_marker_frames(frames, depth);
    sample_cost_record(depth, sample_cost_now() - started);
    atomic_store_explicit(&sampling.buffer_busy[b], 0, memory_order_release);
out:
    atomic_fetch_sub(&sampling.in_flight, 1);
    return stored;
}

void sample_record_free(event_kind event, uint64_t address) {
    atomic_fetch_add(&sampling.in_flight, 1);
    trace_key key = {current_tid(), (uint8_t)event, 0};
    if (atomic_load(&sampling.active) && !trace_store_queue_free(&key, address))
        count(&sampling.dropped[DROP_RING_FULL]);
    atomic_fetch_sub(&sampling.in_flight, 1);
}

void sample_signal_handler(int signo, siginfo_t *info, void *ucontext) {
    (void)signo;
    int saved_errno = errno;
    const sample_config *config = &sampling.config;
    int owner = -1;
    atomic_fetch_add(&sampling.in_flight, 1);
    if (!atomic_load(&sampling.active)) goto out;
    if ((owner = owning_engine(config, info)) < 0) {
        count(&sampling.foreign);
        goto out;
    }
    /* A thread left out by the API's thread filter: not a sample at all, so nothing is counted. */
    if (!thread_filter_allows((int)current_tid())) goto out;
    count(&sampling.signals);
    const engine *e = config->engines[owner];
    if (!sample_window_admits()) {
        count(&sampling.dropped[DROP_OUTSIDE_WINDOW]);
        trace_key outside = {current_tid(), (uint8_t)e->event, 0};
        if (e->signal && e->signal->stored) e->signal->stored(info, &outside, TRACE_STORE_NO_REF);
        goto out;
    }
    if (!rate_limit_allow(e->event)) {
        count(&sampling.dropped[DROP_RATE_LIMITED]);
        trace_key limited = {current_tid(), (uint8_t)e->event, 0};
        if (e->signal && e->signal->stored) e->signal->stored(info, &limited, TRACE_STORE_NO_REF);
        goto out;
    }
    uint64_t started = sample_cost_now();
    if (ucontext) safe_read_note_signal_mask(&((const ucontext_t *)ucontext)->uc_sigmask);

    uint64_t weight = weight_of_sample(e, config->intervals[owner], info);
    uint32_t tid = current_tid();
    int b = claim_buffer(tid);
    if (b < 0) {
        count(&sampling.dropped[DROP_BUFFER_BUSY]);
        trace_key dropped = {tid, (uint8_t)e->event, 0};
        if (e->signal && e->signal->stored) e->signal->stored(info, &dropped, TRACE_STORE_NO_REF);   /* taken, though not stored */
        goto out;
    }
    JNIEnv *env = thread_env(tid);
    asgct_frame *raw = sampling.asgct_buffers + (size_t)b * config->max_depth;
    trace_frame *frames = sampling.frame_buffers + (size_t)b * sample_frames_per_buffer(config->max_depth);
    uint32_t depth = stack_collect(e, info, ucontext, env, tid, raw, frames);
    /* The CPU the handler runs on is the one the event's period ended on, but for a migration in between
     * (the signal is delivered on the way back to user space on the same CPU). The buffer has room past
     * jstackdepth (sample_frames_per_buffer). */
    int cpu = e == config->cpu_frame_engine ? sched_getcpu() : -1;
    if (cpu >= 0) frames[depth++] = (trace_frame){(uint64_t)cpu, 0, FRAME_CPU};
    int state = e->signal && e->signal->thread_state ? e->signal->thread_state(info, ucontext, env, frames, depth) : 0;
    trace_key key = {tid, (uint8_t)e->event, (uint8_t)state};
    uint64_t ref = store_stack(frames, depth, &key, weight, NULL, started);
    atomic_store_explicit(&sampling.buffer_busy[b], 0, memory_order_release);
    if (e->signal && e->signal->stored) e->signal->stored(info, &key, ref);
out:
    after_sample(config, owner, info);
    atomic_fetch_sub(&sampling.in_flight, 1);
    errno = saved_errno;
}
