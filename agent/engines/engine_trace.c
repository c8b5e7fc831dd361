/*
 * engine_trace: latency tracing (trace=pkg.Class.method[:threshold], async-profiler's option). The methods
 * are rewritten (classfile_trace) to call libprof/Instrument.traceEnter(id) first and traceExit(id) on
 * every way out; a call that took its method's threshold or more is recorded as an EVENT_TRACE sample of
 * the calling thread's Java stack (the traced method on top), weighing the ns it took, and in a JFR
 * recording as jdk.MethodTrace with its start and duration.
 *
 * The fast path, what a call under the threshold costs: two JNI calls, each one clock read (the TSC where it
 * is constant: cycle_clock.h), and a compare.
 * Why the start time lives in a per-thread stack here and not in a local of the method: a new local would
 * have to be added to every StackMapTable frame of the method, while the id costs two sipush and changes
 * nothing but offsets. The stack is matched by id on exit, so an entry a throwing constructor left behind
 * (constructors have no rethrowing handler, classfile.h) is dropped at the next exit of an outer call;
 * calls nested deeper than the stack holds are counted and not timed.
 *
 * Classes are rewritten and restored like the instrumentation engine's (engine_instrument.h shares its
 * retransformation); each method keeps its id across sessions (one table, never shrunk), so a frame still
 * running an old version exits under the id it entered with. Java threads only, never signal handlers.
 */
#define _GNU_SOURCE
#include "engine_trace.h"

#include "class_rewrite.h"
#include "classfile.h"
#include "clock_ns.h"
#include "cycle_clock.h"
#include "engine.h"
#include "engine_instrument.h"
#include "event_clock.h"
#include "instrument_helper.h"
#include "java_stack.h"
#include "jvm.h"
#include "log.h"
#include "sample.h"
#include "sample_cost.h"
#include "trace_target.h"
#include "u64map.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The session's targets, NULL while the hook passes classes through; one copy per session, never freed (a
 * hook on another thread may still read the previous one). */
typedef struct {
    int count;
    trace_target targets[OPTIONS_MAX_TRACE];
} trace_set;

static trace_set *_Atomic hook_set;
static _Atomic bool recording;
static bool vm_dying;
static bool jvmti_only;
static uint64_t every = 1;
static _Atomic uint64_t slow_calls, untimed_calls, classes_rewritten, methods_rewritten, classes_refused;

/* Method ids: a name's hash -> id, and each id's threshold for the running session, in cycle_clock ticks. */
static pthread_mutex_t ids_lock = PTHREAD_MUTEX_INITIALIZER;
static u64map ids;
static int id_count;
static _Atomic uint64_t thresholds[CLASSFILE_TRACE_MAX_ID + 1];

/* The calls of one thread under way, innermost last: 64 at first, doubled as a thread nests deeper (a
 * trace=*.* session times every frame of a framework's deep stacks), up to CALLS_MAX. */
#define CALLS_FIRST 64
#define CALLS_MAX 65536
typedef struct {
    int32_t id;
    uint64_t start;
} call_entry;
typedef struct {
    uint32_t depth;      /* may exceed capacity: the calls beyond are not timed */
    uint32_t capacity;
    call_entry *calls;
} call_stack;
/* Each thread's stack is on the heap, reached by an 8-byte thread-local pointer: a kilobyte of initial-exec
 * TLS per thread would leave too little static TLS for a second copy of the library or another agent. */
static __thread call_stack *thread_calls;
static pthread_key_t calls_key;
static pthread_once_t calls_key_once = PTHREAD_ONCE_INIT;

static void calls_free(void *p) {
    call_stack *s = p;
    free(s->calls);
    free(s);
}

static void calls_key_make(void) {
    if (pthread_key_create(&calls_key, calls_free))
        log_warn("trace: no thread key to free a thread's call stack at its end");
}

/* The calling thread's stack, made at its first traced call; NULL without memory (its calls go untimed). */
static call_stack *own_calls(void) {
    if (thread_calls) return thread_calls;
    call_stack *s = calloc(1, sizeof(*s));
    call_entry *calls = s ? malloc(CALLS_FIRST * sizeof(*calls)) : NULL;
    if (!calls) {
        free(s);
        return NULL;
    }
    s->calls = calls;
    s->capacity = CALLS_FIRST;
    pthread_once(&calls_key_once, calls_key_make);
    pthread_setspecific(calls_key, s);
    return thread_calls = s;
}

/* Room for one more call: the stack doubled when full (a Java thread in a JNI call may allocate). */
static bool calls_room(call_stack *s) {
    if (s->depth < s->capacity) return true;
    if (s->depth > s->capacity || s->capacity >= CALLS_MAX) return false;
    call_entry *more = realloc(s->calls, (size_t)s->capacity * 2 * sizeof(*more));
    if (!more) return false;
    s->calls = more;
    s->capacity *= 2;
    return true;
}

static void JNICALL trace_enter(JNIEnv *jni, jclass helper, jint id) {
    (void)jni, (void)helper;
    call_stack *s = own_calls();
    if (!s) {
        atomic_fetch_add_explicit(&untimed_calls, 1, memory_order_relaxed);
        return;
    }
    if (calls_room(s)) {
        s->calls[s->depth].id = id;
        s->calls[s->depth].start = cycle_clock_now();
    }
    s->depth++;
}

static void record_call(JNIEnv *jni, uint64_t took) {
    static _Atomic uint64_t counted;
    /* interval=N: every Nth slow call, the Nth first (async-profiler's count) */
    if ((atomic_fetch_add_explicit(&counted, 1, memory_order_relaxed) + 1) % every) return;
    if (sample_enter()) {
        /* The call ended now, not when its stack has been walked: under load that can be a preemption later. */
        uint64_t ended = event_clock_now();
        uint64_t started = sample_cost_now();
        trace_frame *frames = NULL;
        uint32_t n = java_stack_take(jni, true, 0, jvmti_only, &frames);
        /* Each recorded call stands for 'every' slow calls: their time is estimated as this one's. */
        if (n) sample_store_call(frames, n, took * every, took, ended, started);
        atomic_fetch_add_explicit(&slow_calls, 1, memory_order_relaxed);
    }
    sample_leave();
}

static void JNICALL trace_exit(JNIEnv *jni, jclass helper, jint id) {
    (void)helper;
    uint64_t now = cycle_clock_now();
    call_stack *s = thread_calls;
    if (!s || s->depth == 0) return;
    if (s->depth > s->capacity) {
        s->depth--;
        atomic_fetch_add_explicit(&untimed_calls, 1, memory_order_relaxed);
        return;
    }
    uint32_t i = s->depth;
    while (i > 0 && s->calls[i - 1].id != id) i--;
    if (i == 0) return;   /* not entered under this id: nothing to time */
    s->depth = i - 1;
    uint64_t took = now - s->calls[i - 1].start;
    if (took < atomic_load_explicit(&thresholds[id & CLASSFILE_TRACE_MAX_ID], memory_order_relaxed) ||
        !atomic_load_explicit(&recording, memory_order_acquire))
        return;
    record_call(jni, cycle_clock_to_ns(took));
}

/* The first target that selects the method, or NULL. */
static const trace_target *target_of(const trace_set *set, const char *class_name, const char *method,
                                     const char *descriptor) {
    for (int i = 0; i < set->count; i++)
        if (method_target_matches(&set->targets[i].target, class_name, method, descriptor)) return &set->targets[i];
    return NULL;
}

/* classfile_trace's filter: the method's id (its own from an earlier rewrite, else the next), its threshold
 * set from the target that chose it. */
static int method_id(const char *class_name, const char *method, const char *descriptor, void *arg) {
    if (strcmp(class_name, INSTRUMENT_HELPER_CLASS) == 0) return -1;
    const trace_target *t = target_of((const trace_set *)arg, class_name, method, descriptor);
    if (!t) return -1;
    char name[2048];
    snprintf(name, sizeof(name), "%s.%s%s", class_name, method, descriptor);
    uint64_t key = u64map_hash_bytes(name, strlen(name)) | 1, id = 0;
    pthread_mutex_lock(&ids_lock);
    bool known = u64map_get(&ids, key, &id);
    if (!known && id_count <= CLASSFILE_TRACE_MAX_ID && u64map_put(&ids, key, (uint64_t)id_count) == 0) {
        id = (uint64_t)id_count++;
        known = true;
    }
    pthread_mutex_unlock(&ids_lock);
    if (!known) return -1;   /* every id taken: the method is not traced */
    atomic_store(&thresholds[id], cycle_clock_from_ns(t->threshold_ns));
    return (int)id;
}

static bool set_wants_class(const char *class_name, const void *arg) {
    const trace_set *set = arg;
    for (int i = 0; i < set->count; i++)
        if (method_target_matches_class(&set->targets[i].target, class_name)) return true;
    return false;
}

/* Whether a class was named exactly (not through '*'): its refusal is worth a warning. */
static bool named_exactly(const trace_set *set, const char *class_name) {
    for (int i = 0; i < set->count; i++)
        if (!set->targets[i].target.class_prefix && method_target_matches_class(&set->targets[i].target, class_name))
            return true;
    return false;
}

bool engine_trace_class_file_load_hook(jvmtiEnv *jvmti, const char *name, jint class_data_len,
                                       const unsigned char *class_data, jint *new_class_data_len,
                                       unsigned char **new_class_data) {
    trace_set *set = atomic_load(&hook_set);
    if (!set || class_data_len <= 0) return false;
    if (name && (strcmp(name, INSTRUMENT_HELPER_CLASS) == 0 || !set_wants_class(name, set))) return false;
    uint8_t *out = NULL;
    size_t out_len = 0;
    int methods = 0;
    char why[256] = "";
    classfile_result r = classfile_trace(class_data, (size_t)class_data_len, INSTRUMENT_HELPER_CLASS,
                                         INSTRUMENT_HELPER_TRACE_ENTER, INSTRUMENT_HELPER_TRACE_EXIT, method_id, set,
                                         &out, &out_len, &methods, why, sizeof(why));
    if (r == CLASSFILE_REFUSED) {
        atomic_fetch_add(&classes_refused, 1);
        /* A class a pattern reached is skipped quietly (the JDK has a few too large to trace); one named
         * outright is worth saying. */
        if (name && named_exactly(set, name)) log_warn("trace: class %s left unchanged: %s", name, why);
        else log_debug("trace: class %s left unchanged: %s", name ? name : "(unnamed)", why);
        return false;
    }
    if (r != CLASSFILE_REWRITTEN || !out) return false;
    bool handed = class_rewrite_hand_over(jvmti, out, out_len, new_class_data_len, new_class_data);
    free(out);
    if (!handed) {
        log_warn("trace: class %s left unchanged: out of memory", name ? name : "(unnamed)");
        return false;
    }
    atomic_fetch_add(&classes_rewritten, 1);
    atomic_fetch_add(&methods_rewritten, (uint64_t)methods);
    log_debug("trace: %s: %d methods", name ? name : "(unnamed)", methods);
    return true;
}

void engine_trace_class_prepare(JNIEnv *jni) {
    static _Atomic uint64_t rewritten_when_opened;
    uint64_t rewritten = atomic_load(&classes_rewritten);
    if (!atomic_load(&hook_set) || atomic_exchange(&rewritten_when_opened, rewritten) == rewritten) return;
    instrument_helper_open_modules(jni, jvm_jvmti());
}

void engine_trace_vm_death(void) {
    vm_dying = true;
}

static int parse_set(const prof_options *o, trace_set *set, char *err, size_t errlen) {
    set->count = 0;
    for (int i = 0; i < o->trace_count && i < OPTIONS_MAX_TRACE; i++)
        if (trace_target_parse(o->trace[i], &set->targets[set->count++], err, errlen)) return -1;
    if (set->count == 0) {
        snprintf(err, errlen, "trace: no methods given (trace=pkg.Class.method[:threshold])");
        return -1;
    }
    return 0;
}

static int trace_check(const prof_options *o, char *err, size_t errlen) {
    trace_set set;
    if (parse_set(o, &set, err, errlen)) return -1;
    return engine_instrument_capabilities("trace=", err, errlen);
}

static int trace_start(const prof_options *o, uint64_t interval, char *err, size_t errlen) {
    const char *test_jvmti = getenv("LIBPROF_TEST_INSTRUMENT_JVMTI");
    jvmti_only = test_jvmti && strcmp(test_jvmti, "1") == 0;
    JNIEnv *jni = engine_instrument_jni(err, errlen);
    if (!jni) return -1;
    trace_set *set = malloc(sizeof(*set));
    if (!set) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    jvmtiEnv *jvmti = jvm_jvmti();
    if (parse_set(o, set, err, errlen) ||
        instrument_helper_bind_trace(jni, jvmti, trace_enter, trace_exit, err, errlen)) {
        free(set);
        return -1;
    }
    cycle_clock_init();
    static bool ids_ready;
    if (!ids_ready) {
        u64map_init(&ids);
        ids_ready = true;
    }
    instrument_helper_open_modules(jni, jvmti);
    every = interval ? interval : 1;
    atomic_store(&slow_calls, 0);
    atomic_store(&untimed_calls, 0);
    atomic_store(&classes_rewritten, 0);
    atomic_store(&methods_rewritten, 0);
    atomic_store(&classes_refused, 0);
    atomic_store_explicit(&recording, true, memory_order_release);
    /* The hook rewrites only once the natives are bound: a traced method calling an unbound native would
     * throw UnsatisfiedLinkError. */
    atomic_store(&hook_set, set);
    if ((*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_CLASS_FILE_LOAD_HOOK, NULL) !=
        JVMTI_ERROR_NONE) {
        atomic_store(&hook_set, NULL);
        atomic_store(&recording, false);
        snprintf(err, errlen, "trace: JVMTI cannot enable the ClassFileLoadHook");
        return -1;
    }
    engine_instrument_retransform(jni, set_wants_class, set, "traced");
    log_info("trace: %llu methods in %llu loaded classes traced, %llu classes refused (later classes are traced "
             "as they load)",
             (unsigned long long)atomic_load(&methods_rewritten), (unsigned long long)atomic_load(&classes_rewritten),
             (unsigned long long)atomic_load(&classes_refused));
    return 0;
}

static void trace_stop(void) {
    atomic_store(&recording, false);
    trace_set *set = atomic_exchange(&hook_set, NULL);
    if (!set || vm_dying) return;
    char err[256];
    JNIEnv *jni = engine_instrument_jni(err, sizeof(err));
    if (!jni) {
        log_warn("trace: %s; traced classes keep the (inactive) calls", err);
        return;
    }
    /* The hook stays enabled, passing classes through, as the lock engine leaves it: another engine of
     * the session may still rewrite with it. */
    engine_instrument_retransform(jni, set_wants_class, set, "restored");
    log_info("trace: %llu slow calls recorded (%llu calls nested too deep to time); %llu methods in %llu classes "
             "had been traced (%llu classes refused); original classes restored",
             (unsigned long long)atomic_load(&slow_calls), (unsigned long long)atomic_load(&untimed_calls),
             (unsigned long long)atomic_load(&methods_rewritten), (unsigned long long)atomic_load(&classes_rewritten),
             (unsigned long long)atomic_load(&classes_refused));
}

const engine engine_trace = {
    .name = "trace",
    .event = EVENT_TRACE,
    .units = ENGINE_UNITS_NS,
    .counts = "traced calls at or over their threshold; weight: ns the calls took",
    .default_interval = 1,
    .check = trace_check,
    .start = trace_start,
    .stop = trace_stop,
    .delivery = ENGINE_DELIVERY_JAVA_CALL,
};
