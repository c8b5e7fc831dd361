/* Runs in signal handlers: async-signal-safe code only. */
/*
 * sample: the handler body. Stack buffers come from a small preallocated pool claimed by atomic exchange,
 * so concurrent handlers on different threads never share one and never wait: a handler that finds none
 * free drops its sample and counts it. The weight is the thread's CPU time since its previous sample,
 * which stays right when the kernel coalesces timer expiries at tick granularity.
 */
#define _GNU_SOURCE
#include "sample.h"

#include "java_tids.h"
#include "sample_cost.h"
#include "walk.h"
#include "walk_vm.h"
#include "safe_read.h"

#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#define BUFFER_COUNT 64
/* Java frames, a marker, the truncation marker, and the kernel frames ahead of them. */

static sample_config config;
static asgct_frame *asgct_buffers;
static trace_frame *frame_buffers;
static _Atomic int buffer_busy[BUFFER_COUNT];
static size_t buffers_bytes;

/* The trace tables: handlers store into tables[table_index]. A handler announces itself in
 * table_users[i] before it uses tables[i], so a switch can wait until the previous table is unused. */
static trace_table *tables[2];
static _Atomic uint32_t table_index;
static _Atomic int table_users[2];

static _Atomic bool active;
static _Atomic int in_flight;
static _Atomic uint32_t generation = 1;

static _Atomic uint64_t count_signals, count_stored;
static _Atomic uint64_t count_dropped[DROP_REASON_COUNT];
static _Atomic uint64_t count_markers[MARKER_COUNT];
static _Atomic uint64_t count_vm_fallbacks[VMWALK_REASON_COUNT];
static _Atomic uint64_t count_self_named;
static _Atomic uint64_t count_foreign;   /* profiling signals the engine did not send (kill, sigqueue...) */

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
    if (thread_clock.env) return thread_clock.env;
    JNIEnv *env = NULL;
    if (java_tids_contains((int)tid) && (*config.vm)->GetEnv(config.vm, (void **)&env, JNI_VERSION_1_6) == JNI_OK)
        thread_clock.env = env;
    return thread_clock.env;
}

static uint32_t current_tid(void) {
    if (!thread_clock.tid) thread_clock.tid = (uint32_t)syscall(SYS_gettid);
    return thread_clock.tid;
}

/* Kernel frames, native frames, Java frames and up to two markers. */
static size_t frames_per_buffer(int max_depth) {
    return (size_t)max_depth + SAMPLE_MAX_KERNEL_FRAMES + SAMPLE_MAX_NATIVE_FRAMES + 2;
}

int sample_configure(const sample_config *cfg) {
    size_t per_buffer = (size_t)cfg->max_depth * sizeof(asgct_frame) + frames_per_buffer(cfg->max_depth) * sizeof(trace_frame);
    size_t bytes = per_buffer * BUFFER_COUNT;
    if (asgct_buffers && (config.max_depth != cfg->max_depth)) {
        munmap(asgct_buffers, buffers_bytes);
        asgct_buffers = NULL;
    }
    if (!asgct_buffers) {
        void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED) return -1;
        asgct_buffers = p;
        buffers_bytes = bytes;
    }
    frame_buffers = (trace_frame *)(asgct_buffers + (size_t)cfg->max_depth * BUFFER_COUNT);
    config = *cfg;
    tables[0] = cfg->table;
    tables[1] = NULL;
    atomic_store(&table_index, 0);
    return 0;
}

void sample_reset_counters(void) {
    atomic_fetch_add(&generation, 1);
    sample_cost_reset();
    atomic_store(&count_signals, 0);
    atomic_store(&count_stored, 0);
    for (int i = 0; i < DROP_REASON_COUNT; i++) atomic_store(&count_dropped[i], 0);
    for (int i = 0; i < MARKER_COUNT; i++) atomic_store(&count_markers[i], 0);
    for (int i = 0; i < VMWALK_REASON_COUNT; i++) atomic_store(&count_vm_fallbacks[i], 0);
    atomic_store(&count_self_named, 0);
    atomic_store(&count_foreign, 0);
}

trace_table *sample_current_table(void) {
    return tables[atomic_load(&table_index)];
}

int sample_switch_table(trace_table *next, int timeout_ms) {
    uint32_t old = atomic_load(&table_index), now = old ^ 1;
    tables[now] = next;
    atomic_store(&table_index, now);
    for (int waited = 0; atomic_load(&table_users[old]) > 0; waited++) {
        if (waited >= timeout_ms * 10) return -1;
        struct timespec wait = {0, 100000};
        nanosleep(&wait, NULL);
    }
    return (int)now;
}

/* Claims the current table: after the re-check, a switch that has not been seen yet waits for us. */
static uint32_t enter_table(void) {
    for (;;) {
        uint32_t i = atomic_load(&table_index);
        atomic_fetch_add(&table_users[i], 1);
        if (atomic_load(&table_index) == i) return i;
        atomic_fetch_sub(&table_users[i], 1);
    }
}

void sample_set_active(bool on) {
    atomic_store(&active, on);
}

bool sample_wait_idle(int timeout_ms) {
    for (int waited = 0; atomic_load(&in_flight) > 0; waited++) {
        if (waited >= timeout_ms) return false;
        struct timespec ms = {0, 1000000};
        nanosleep(&ms, NULL);
    }
    return true;
}

void sample_get_counters(sample_counters *out) {
    out->signals = atomic_load(&count_signals);
    out->stored = atomic_load(&count_stored);
    for (int i = 0; i < DROP_REASON_COUNT; i++) out->dropped[i] = atomic_load(&count_dropped[i]);
    for (int i = 0; i < MARKER_COUNT; i++) out->markers[i] = atomic_load(&count_markers[i]);
    for (int i = 0; i < VMWALK_REASON_COUNT; i++) out->vm_fallbacks[i] = atomic_load(&count_vm_fallbacks[i]);
    out->vm_self_named = atomic_load(&count_self_named);
    out->foreign = atomic_load(&count_foreign);
}

const char *sample_drop_reason_name(drop_reason r) {
    static const char *const names[DROP_REASON_COUNT] = {"buffer_busy", "table_full", "frames_full",
                                                            "jfr_ring_full"};
    return (unsigned)r < DROP_REASON_COUNT ? names[r] : "?";
}

static int claim_buffer(uint32_t tid) {
    for (int i = 0; i < BUFFER_COUNT; i++) {
        int b = (int)((tid + (uint32_t)i) % BUFFER_COUNT);
        if (atomic_exchange_explicit(&buffer_busy[b], 1, memory_order_acquire) == 0) return b;
    }
    return -1;
}

/* The CPU time this sample stands for. A POSIX CPU timer says how many expiries its signal stands for
 * (si_overrun), which costs nothing; otherwise the thread's CPU time since its previous sample. */
static uint64_t sample_weight(const siginfo_t *info) {
    if (config.engine && config.engine->timer_overruns && info && info->si_code == SI_TIMER)
        return config.interval_ns * (1 + (uint64_t)(info->si_overrun > 0 ? info->si_overrun : 0));
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) return config.interval_ns;
    uint64_t now = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
    uint32_t gen = atomic_load_explicit(&generation, memory_order_relaxed);
    uint64_t weight = config.interval_ns;
    if (thread_clock.generation == gen && now > thread_clock.last_cpu_ns) weight = now - thread_clock.last_cpu_ns;
    thread_clock.generation = gen;
    thread_clock.last_cpu_ns = now;
    return weight;
}

/* True when every frame names a method: a guessed caller that was no caller yields frames without one. */
static bool all_frames_named(const asgct_trace *trace) {
    for (jint i = 0; i < trace->num_frames; i++) {
        if (!trace->frames[i].method_id) return false;
    }
    return trace->num_frames > 0;
}

static bool walk_from(asgct_trace *trace, const ucontext_t *uc, uintptr_t pc, uintptr_t sp, uintptr_t fp) {
    ucontext_t caller = *uc;
    greg_t *regs = caller.uc_mcontext.gregs;
    regs[REG_RIP] = (greg_t)pc;
    regs[REG_RSP] = (greg_t)sp;
    regs[REG_RBP] = (greg_t)fp;
    trace->num_frames = 0;
    config.asgct(trace, config.max_depth, &caller);
    return all_frames_named(trace);
}

/* AsyncGetCallTrace cannot start inside a JIT stub (math intrinsics, arraycopy, runtime calls) but the
 * stub's caller is one frame away: either the return address is at sp (a frameless stub) or the stub made
 * a frame-pointer frame. Retrying from the caller attributes the sample to the Java code that called the
 * stub instead of losing it. The original failure stays when neither guess yields named frames. */
static void retry_from_stub_caller(asgct_trace *trace, void *ucontext) {
    const ucontext_t *uc = ucontext;
    const greg_t *regs = uc->uc_mcontext.gregs;
    jint original = trace->num_frames;
    uintptr_t sp = (uintptr_t)regs[REG_RSP], fp = (uintptr_t)regs[REG_RBP], ret, saved_fp;
    /* The word at sp is on the thread's own live stack: always readable. */
    if (walk_from(trace, uc, *(uintptr_t *)sp, sp + sizeof(uintptr_t), fp)) return;
    if (fp > sp && fp - sp < 65536 && safe_read_word(fp + sizeof(uintptr_t), &ret) &&
        safe_read_word(fp, &saved_fp) && walk_from(trace, uc, ret, fp + 2 * sizeof(uintptr_t), saved_fp))
        return;
    trace->num_frames = original;
}

/* The Java frames of the interrupted thread from AsyncGetCallTrace, into raw. Returns their number, or a
 * failure code (< 0, see the markers in frame.h). */
static jint java_trace(void *ucontext, JNIEnv *env, asgct_frame *raw) {
    asgct_trace trace = {env, 0, raw};
    config.asgct(&trace, config.max_depth, ucontext);
    if ((trace.num_frames == -MARKER_UNKNOWN_JAVA || trace.num_frames == -MARKER_NOT_WALKABLE_JAVA) && ucontext)
        retry_from_stub_caller(&trace, ucontext);
    return trace.num_frames;
}

/* Appends the 'count' Java frames of raw (or count's failure code) after the 'n' native frames already in
 * 'out' (leaf first). When there are none, the native frames stand alone if they are the thread's whole
 * truth; otherwise a marker frame says why the Java part is missing. Returns the new depth. */
static uint32_t append_java_frames(jint count, JNIEnv *env, uint32_t tid, const asgct_frame *raw, trace_frame *out,
                                   uint32_t n) {
    if (!env) {
        if (n == 0) out[n++] = (trace_frame){MARKER_NON_JAVA_THREAD, 0, FRAME_MARKER};
        return n;
    }
    if (count <= 0) {
        int marker = count == 0 ? MARKER_NO_JAVA_FRAMES : -count;
        if (marker >= MARKER_COUNT) marker = MARKER_UNKNOWN_STATE;
        /* JIT compiler and other VM-internal threads carry a JNIEnv but never run Java: not a failure. */
        bool not_java = marker == MARKER_UNKNOWN_NOT_JAVA || marker == MARKER_NOT_WALKABLE_NOT_JAVA ||
                        marker == MARKER_NO_JAVA_FRAMES;
        if (not_java && config.java_tids_complete && !java_tids_contains((int)tid)) marker = MARKER_NON_JAVA_THREAD;
        bool complete_without_java = marker == MARKER_NON_JAVA_THREAD || marker == MARKER_NO_JAVA_FRAMES;
        if (!(complete_without_java && n > 0)) out[n++] = (trace_frame){(uint64_t)marker, 0, FRAME_MARKER};
        return n;
    }
    for (jint i = 0; i < count; i++) {
        out[n++] = (trace_frame){(uint64_t)(uintptr_t)raw[i].method_id, raw[i].lineno, FRAME_JAVA};
    }
    if (count >= config.max_depth) out[n++] = (trace_frame){MARKER_TRUNCATED, 0, FRAME_MARKER};
    return n;
}

/* The native frames from the leaf down to the first frame in the code cache. */
static uint32_t native_leaf(walk_regs start, trace_frame *out) {
    walk_end end;
    return (uint32_t)walk_dwarf(start, out, SAMPLE_MAX_NATIVE_FRAMES, &end);
}

/* cstack=vm: one walk through native and Java frames alike; when it cannot place the Java frames, the
 * sample falls back to stitching (the leaf's native frames, then the Java frames) and the reason is
 * counted. */
static uint32_t collect_interleaved(walk_regs start, JNIEnv *env, uint32_t tid, asgct_frame *raw, trace_frame *out,
                                    void *ucontext) {
    jint count = env ? java_trace(ucontext, env, raw) : 0;
    /* Deeper than jstackdepth: the root is out of reach anyway, the stitched stack is the truncated truth. */
    if (count >= config.max_depth) return append_java_frames(count, env, tid, raw, out, native_leaf(start, out));
    vmwalk_result r;
    uint32_t n = (uint32_t)walk_vm(start, raw, count, env != NULL, out, config.max_depth + SAMPLE_MAX_NATIVE_FRAMES,
                                   &r);
    if (r.failure == VMWALK_OK) {
        if (r.self_named) atomic_fetch_add_explicit(&count_self_named, 1, memory_order_relaxed);
        if (r.truncated) out[n++] = (trace_frame){MARKER_TRUNCATED, 0, FRAME_MARKER};
        else if (count <= 0 && !r.self_named) n = append_java_frames(count, env, tid, raw, out, n);
        return n;
    }
    atomic_fetch_add_explicit(&count_vm_fallbacks[r.failure], 1, memory_order_relaxed);
    return append_java_frames(count, env, tid, raw, out, (uint32_t)r.native_prefix);
}

/* The interrupted thread's whole stack, leaf first: native frames down to JVM code, then Java frames. */
static uint32_t collect_stack(void *ucontext, JNIEnv *env, uint32_t tid, asgct_frame *raw, trace_frame *out) {
    uint32_t n = 0;
    if (config.cstack != CSTACK_NO && ucontext) {
        const greg_t *regs = ((const ucontext_t *)ucontext)->uc_mcontext.gregs;
        walk_regs start = {(uintptr_t)regs[REG_RIP], (uintptr_t)regs[REG_RSP], (uintptr_t)regs[REG_RBP]};
        safe_read_note_stack_pointer(start.sp);
        if (config.cstack == CSTACK_VM) return collect_interleaved(start, env, tid, raw, out, ucontext);
        walk_end end;
        n = (uint32_t)(config.cstack == CSTACK_DWARF ? walk_dwarf(start, out, SAMPLE_MAX_NATIVE_FRAMES, &end)
                                                     : walk_fp(start, out, SAMPLE_MAX_NATIVE_FRAMES, &end));
    }
    return append_java_frames(env ? java_trace(ucontext, env, raw) : 0, env, tid, raw, out, n);
}

static void count_marker_frames(const trace_frame *frames, uint32_t depth) {
    for (uint32_t i = 0; i < depth; i++) {
        if (frames[i].kind == FRAME_MARKER && frames[i].id < MARKER_COUNT)
            atomic_fetch_add_explicit(&count_markers[frames[i].id], 1, memory_order_relaxed);
    }
}

/* The kernel frames the engine recorded for this sample (perf_events), leaf first. */
static uint32_t kernel_stack(const siginfo_t *info, trace_frame *out) {
    const engine *e = config.engine;
    if (!e || !e->kernel_frames) return 0;
    uintptr_t pcs[SAMPLE_MAX_KERNEL_FRAMES];
    int n = e->kernel_frames(info, pcs, SAMPLE_MAX_KERNEL_FRAMES);
    for (int i = 0; i < n; i++) out[i] = (trace_frame){pcs[i], 0, FRAME_KERNEL};
    return n > 0 ? (uint32_t)n : 0;
}

/* Counted events (page faults...) weigh their period, and so do CPU-time events that count every
 * nanosecond; other time events the CPU time since the last sample. */
static uint64_t weight_of_sample(const siginfo_t *info) {
    const engine *e = config.engine;
    bool period = e && (e->counts_events || (e->interval_is_cpu_time && e->interval_is_cpu_time()));
    return period ? config.interval_ns : sample_weight(info);
}

/* The sample's record for the JFR writer: when (the event clock is CLOCK_MONOTONIC), who, which stack. */
static bool queue_record(uint32_t tid, uint32_t trace_id) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    sample_record rec = {(uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec, tid, trace_id};
    return sample_ring_push(config.ring, &rec);
}

/* Stores one stack of thread 'tid' in the table in use, queues its record for the JFR writer when one
 * runs, and counts the outcome and its cost ('started': a sample_cost_now() reading). */
static void store_stack(const trace_frame *frames, uint32_t depth, uint32_t tid, uint64_t weight, uint64_t started) {
    uint32_t trace_id = 0, t = enter_table();
    traces_result r = traces_put_id(tables[t], frames, depth, config.per_thread ? tid : 0, weight, &trace_id);
    bool queued = r != TRACES_STORED || !config.ring || queue_record(tid, trace_id | (t ? SAMPLE_TABLE_BIT : 0));
    atomic_fetch_sub(&table_users[t], 1);
    if (!queued) {
        atomic_fetch_add_explicit(&count_dropped[DROP_RING_FULL], 1, memory_order_relaxed);
    } else if (r == TRACES_STORED) {
        atomic_fetch_add_explicit(&count_stored, 1, memory_order_relaxed);
        count_marker_frames(frames, depth);
    } else {
        drop_reason why = r == TRACES_TABLE_FULL ? DROP_TABLE_FULL : DROP_FRAMES_FULL;
        atomic_fetch_add_explicit(&count_dropped[why], 1, memory_order_relaxed);
    }
    sample_cost_record(depth, sample_cost_now() - started);
}

bool sample_enter(void) {
    atomic_fetch_add(&in_flight, 1);
    return atomic_load(&active);
}

void sample_leave(void) {
    atomic_fetch_sub(&in_flight, 1);
}

int sample_max_depth(void) {
    return config.max_depth;
}

uint32_t sample_thread_id(void) {
    return current_tid();
}

void sample_store(const trace_frame *frames, uint32_t depth, uint64_t weight, uint64_t started) {
    atomic_fetch_add_explicit(&count_signals, 1, memory_order_relaxed);
    store_stack(frames, depth, current_tid(), weight, started);
}

void sample_signal_handler(int signo, siginfo_t *info, void *ucontext) {
    (void)signo;
    int saved_errno = errno;
    atomic_fetch_add(&in_flight, 1);
    if (!atomic_load(&active)) goto out;
    if (!engine_signal_is_own(config.engine, info)) {
        atomic_fetch_add_explicit(&count_foreign, 1, memory_order_relaxed);
        goto out;
    }
    atomic_fetch_add_explicit(&count_signals, 1, memory_order_relaxed);
    uint64_t started = sample_cost_now();
    if (ucontext) safe_read_note_signal_mask(&((const ucontext_t *)ucontext)->uc_sigmask);

    uint64_t weight = weight_of_sample(info);
    uint32_t tid = current_tid();
    int b = claim_buffer(tid);
    if (b < 0) {
        atomic_fetch_add_explicit(&count_dropped[DROP_BUFFER_BUSY], 1, memory_order_relaxed);
        goto out;
    }
    JNIEnv *env = thread_env(tid);
    asgct_frame *raw = asgct_buffers + (size_t)b * config.max_depth;
    trace_frame *frames = frame_buffers + (size_t)b * frames_per_buffer(config.max_depth);
    uint32_t kernel_depth = kernel_stack(info, frames);
    uint32_t depth = kernel_depth + collect_stack(ucontext, env, tid, raw, frames + kernel_depth);
    depth = frame_bound_stack(frames, depth, (uint32_t)config.max_depth);

    store_stack(frames, depth, tid, weight, started);
    atomic_store_explicit(&buffer_busy[b], 0, memory_order_release);
out:
    /* Taken or not, a one-shot engine must re-arm, or this thread is never sampled again. */
    if (config.engine && config.engine->after_sample) config.engine->after_sample(info);
    atomic_fetch_sub(&in_flight, 1);
    errno = saved_errno;
}
