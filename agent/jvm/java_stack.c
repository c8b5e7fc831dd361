/*
 * java_stack: see java_stack.h. Why AsyncGetCallTrace first: on the calling thread it walks from the frame
 * anchor the native call (or the JVMTI callback's transition) left and needs no signal context; it costs
 * about half of GetStackTrace, which builds a vframe per frame. Buffers start small (most stacks are
 * shallow, and every thread that records keeps one) and grow to jstackdepth when a stack fills them.
 */
#define _GNU_SOURCE
#include "java_stack.h"

#include "jvm.h"
#include "sample.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#define INITIAL_FRAMES 128
#define EXTRA_SLOTS 4

typedef struct {
    int capacity;
    asgct_frame *raw;        /* capacity + 1: a skipped native frame comes first */
    jvmtiFrameInfo *info;    /* capacity + 1 */
    trace_frame *frames;     /* EXTRA_SLOTS + capacity + 1: the caller's leaf frames, a truncation marker */
} stack_buffer;

static pthread_key_t buffer_key;
static pthread_once_t buffer_key_once = PTHREAD_ONCE_INIT;

static void create_buffer_key(void) {
    pthread_key_create(&buffer_key, free);
}

/* The thread's buffer with room for exactly 'depth' frames. */
static stack_buffer *thread_buffer(int depth) {
    stack_buffer *b = pthread_getspecific(buffer_key);
    if (b && b->capacity == depth) return b;
    free(b);
    size_t slots = (size_t)depth + 1;
    b = malloc(sizeof(*b) + slots * sizeof(asgct_frame) + slots * sizeof(jvmtiFrameInfo) +
               (slots + EXTRA_SLOTS) * sizeof(trace_frame));
    if (b) {
        b->capacity = depth;
        b->raw = (asgct_frame *)(b + 1);
        b->info = (jvmtiFrameInfo *)(b->raw + slots);
        b->frames = (trace_frame *)(b->info + slots);
    }
    pthread_setspecific(buffer_key, b);
    return b;
}

/* Returns the frame count, or 0 when AsyncGetCallTrace could not walk or met a method without a jmethodID
 * (then GetStackTrace does the job). */
static uint32_t stack_by_asgct(JNIEnv *jni, stack_buffer *b, trace_frame *out, int depth, int skip) {
    asgct_fn asgct = jvm_asgct();
    if (!asgct) return 0;
    asgct_trace trace = {jni, 0, b->raw};
    asgct(&trace, depth + skip, NULL);
    /* The skipped frame must be the caller's native method (bci -3). */
    if (trace.num_frames < 1 + skip || (skip && b->raw[0].lineno != -3)) return 0;
    uint32_t n = 0;
    for (jint i = skip; i < trace.num_frames; i++) {
        if (!b->raw[i].method_id) return 0;
        out[n++] = (trace_frame){(uint64_t)(uintptr_t)b->raw[i].method_id, b->raw[i].lineno, FRAME_JAVA};
    }
    if (trace.num_frames >= depth + skip) out[n++] = (trace_frame){MARKER_TRUNCATED, 0, FRAME_MARKER};
    return n;
}

static uint32_t stack_by_jvmti(stack_buffer *b, trace_frame *out, int depth, int skip) {
    jint count = 0;
    jvmtiEnv *jvmti = jvm_jvmti();
    uint32_t n = 0;
    jvmtiError e = (*jvmti)->GetStackTrace(jvmti, NULL, skip, depth, b->info, &count);
    if (e != JVMTI_ERROR_NONE || count <= 0) {
        /* No frame without an error: the thread runs no Java code (the VM at start-up), not a failure. */
        out[n++] = (trace_frame){e == JVMTI_ERROR_NONE ? MARKER_NO_JAVA_FRAMES : MARKER_UNKNOWN_JAVA, 0, FRAME_MARKER};
        return n;
    }
    for (jint i = 0; i < count; i++)
        out[n++] = (trace_frame){(uint64_t)(uintptr_t)b->info[i].method, (int32_t)b->info[i].location, FRAME_JAVA};
    if (count >= depth) out[n++] = (trace_frame){MARKER_TRUNCATED, 0, FRAME_MARKER};
    return n;
}

/* A site that failed this many times in a row skips AsyncGetCallTrace, but for one call in PROBE_EVERY. */
#define SITE_MISSES 8
#define PROBE_EVERY 64

static bool site_skips_asgct(java_stack_site *site) {
    if (!site || atomic_load_explicit(&site->asgct_misses, memory_order_relaxed) < SITE_MISSES) return false;
    return (atomic_fetch_add_explicit(&site->skipped, 1, memory_order_relaxed) + 1) % PROBE_EVERY != 0;
}

static void site_learn(java_stack_site *site, bool asgct_walked) {
    if (!site) return;
    if (asgct_walked) atomic_store_explicit(&site->asgct_misses, 0, memory_order_relaxed);
    else if (atomic_load_explicit(&site->asgct_misses, memory_order_relaxed) < SITE_MISSES)
        atomic_fetch_add_explicit(&site->asgct_misses, 1, memory_order_relaxed);
}

static uint32_t take(JNIEnv *jni, stack_buffer *b, int depth, int skip, bool jvmti_only, java_stack_site *site) {
    trace_frame *out = b->frames + EXTRA_SLOTS;
    uint32_t n = 0;
    if (!jvmti_only && !site_skips_asgct(site)) {
        n = stack_by_asgct(jni, b, out, depth, skip);
        site_learn(site, n != 0);
    }
    return n ? n : stack_by_jvmti(b, out, depth, skip);
}

static uint32_t take_stack(java_stack_site *site, JNIEnv *jni, bool skip_native_top, uint32_t extra, bool jvmti_only,
                           trace_frame **frames) {
    pthread_once(&buffer_key_once, create_buffer_key);
    if (extra > EXTRA_SLOTS) return 0;
    int depth = sample_max_depth();
    int skip = skip_native_top ? 1 : 0;
    stack_buffer *b = pthread_getspecific(buffer_key);
    int capacity = b ? b->capacity : INITIAL_FRAMES;
    if (capacity > depth) capacity = depth;
    if (!(b = thread_buffer(capacity))) return 0;
    uint32_t n = take(jni, b, capacity, skip, jvmti_only, site);
    const trace_frame *last = &b->frames[EXTRA_SLOTS + n - 1];
    if (capacity < depth && last->kind == FRAME_MARKER && last->id == MARKER_TRUNCATED) {
        if (!(b = thread_buffer(depth))) return 0;
        n = take(jni, b, depth, skip, jvmti_only, site);
    }
    *frames = b->frames + EXTRA_SLOTS - extra;
    return sample_bound_stack(b->frames + EXTRA_SLOTS, n);
}

uint32_t java_stack_take(JNIEnv *jni, bool skip_native_top, uint32_t extra, bool jvmti_only, trace_frame **frames) {
    return take_stack(NULL, jni, skip_native_top, extra, jvmti_only, frames);
}

uint32_t java_stack_take_at(java_stack_site *site, JNIEnv *jni, bool skip_native_top, uint32_t extra,
                            trace_frame **frames) {
    return take_stack(site, jni, skip_native_top, extra, false, frames);
}
