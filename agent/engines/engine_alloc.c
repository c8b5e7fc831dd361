/*
 * engine_alloc: allocation profiling through the JVM's own sampler (JVMTI SampledObjectAlloc, JDK 11+).
 * The JVM picks an allocation every 'interval' bytes on average (SetHeapSamplingInterval: a random,
 * geometrically distributed distance between samples) and calls back on the allocating thread, outside
 * any signal handler, with the object, its class and its size. The sample is the thread's whole stack,
 * walked from the callback's caller like a signal sample (alloc_stack.h: native frames too, so allocations
 * the JVM makes for itself, at start-up under JNI_CreateJavaVM, show where they come from), with the class
 * as its leaf (FRAME_CLASS_ALLOC); the Java stack alone (java_stack.h) when that walk finds nothing.
 *
 * Weight: the sampler picks bytes, not objects, so an object of s bytes is picked with probability
 * p(s) = 1 - exp(-s / interval); each sample stands for s / p(s) bytes (Horvitz-Thompson), which is about
 * 'interval' for small objects and s for objects larger than the interval. The sum of the weights
 * estimates all bytes allocated; the count of samples is the default value ('total' shows the weights).
 */
#include "alloc_live.h"
#include "call_site.h"
#include "alloc_stack.h"
#include "class_names.h"
#include "clock_ns.h"
#include "event_clock.h"
#include "engine.h"
#include "java_stack.h"
#include "jvm.h"
#include "jvmti_events.h"
#include "log.h"
#include "out_jfr.h"
#include "sample.h"
#include "sample_cost.h"
#include "stoppable_sleep.h"

#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

static _Atomic bool recording;
static uint64_t interval_bytes = OPTIONS_DEFAULT_ALLOC_BYTES;
static bool live;
/* alloc,live into a JFR recording: the allocation samples stream into it too, as async-profiler writes both
 * (the live objects are added at its end); other formats show the live objects alone. */
static bool live_in_recording;
static java_stack_site alloc_site;

uint64_t engine_alloc_weight(uint64_t size, uint64_t interval);

uint64_t engine_alloc_weight(uint64_t size, uint64_t interval) {
    if (!interval || !size) return size;
    double p = -expm1(-(double)size / (double)interval);
    return p > 0 ? (uint64_t)llround((double)size / p) : size;
}

void JNICALL engine_alloc_on_sample(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jobject object, jclass klass,
                                    jlong size) {
    (void)thread;
    if (!atomic_load_explicit(&recording, memory_order_acquire)) return;
    if (sample_enter()) {
        uint64_t started = sample_cost_now();
        trace_frame *frames = NULL;
        sample_call_site site = CALL_SITE_OF_CALLER(0);
        uint32_t n = alloc_stack_take(&site, jni, 1, &frames);
        if (!n) n = java_stack_take_at(&alloc_site, jni, false, 1, &frames);
        if (n) {
            frames[0] = (trace_frame){jvmti_events_class_id(jvmti, klass), 0, FRAME_CLASS_ALLOC};
            uint64_t weight = engine_alloc_weight(size > 0 ? (uint64_t)size : 0, interval_bytes);
            if (!live || live_in_recording)
                sample_store_alloc(frames, n + 1, weight, size > 0 ? (uint64_t)size : 0, started);
            if (live) {
                alloc_live_object sampled = {frames, n + 1, sample_thread_id(), weight,
                                             size > 0 ? (uint64_t)size : 0, event_clock_now()};
                if (!alloc_live_add(jni, object, &sampled)) sample_count_drop(DROP_LIVE_FULL);
            }
        }
    }
    sample_leave();
}

static JNIEnv *current_jni(void) {
    JNIEnv *jni = NULL;
    JavaVM *vm = jvm_vm();
    return vm && (*vm)->GetEnv(vm, (void **)&jni, JNI_VERSION_1_6) == JNI_OK ? jni : NULL;
}

static int alloc_check(const prof_options *o, char *err, size_t errlen) {
    (void)o;
    return jvmti_events_add_capability(JVMTI_CAP_SAMPLED_ALLOC, "alloc", err, errlen);
}

static uint64_t sampling_interval(uint64_t interval) {
    uint64_t bytes = interval ? interval : OPTIONS_DEFAULT_ALLOC_BYTES;
    return bytes > 0x7fffffff ? 0x7fffffff : bytes;
}

/* A thread takes a new sampling interval into account only after its next sample, which the JVM's default
 * interval (512 KiB) puts far away: set at VMInit, the main thread of a short program is barely sampled.
 * Set in Agent_OnLoad, every thread, the main one included, starts with it. */
static void alloc_at_load(uint64_t interval) {
    jvmtiEnv *jvmti = jvm_jvmti();
    if (jvmti) (*jvmti)->SetHeapSamplingInterval(jvmti, (jint)sampling_interval(interval));
}

static int alloc_start(const prof_options *o, uint64_t interval, char *err, size_t errlen) {
    live = o->live;
    live_in_recording = live && options_effective_format(o) == FORMAT_JFR;
    jvmtiEnv *jvmti = jvm_jvmti();
    interval_bytes = sampling_interval(interval);
    JNIEnv *jni = current_jni();
    if (jni) alloc_live_clear(jni);
    jvmtiError e = (*jvmti)->SetHeapSamplingInterval(jvmti, (jint)interval_bytes);
    if (e != JVMTI_ERROR_NONE) {
        snprintf(err, errlen, "alloc=%llu: JVMTI refused the sampling interval (error %d)",
                 (unsigned long long)interval_bytes, (int)e);
        return -1;
    }
    atomic_store_explicit(&recording, true, memory_order_release);
    if (jvmti_events_enable(JVMTI_EVENT_SAMPLED_OBJECT_ALLOC, true, "alloc", err, errlen)) {
        atomic_store(&recording, false);
        return -1;
    }
    return 0;
}

static void alloc_stop(void) {
    char err[256];
    atomic_store(&recording, false);
    if (jvmti_events_enable(JVMTI_EVENT_SAMPLED_OBJECT_ALLOC, false, "alloc", err, sizeof(err))) log_warn("%s", err);
    jvmti_events_relinquish_capability(JVMTI_CAP_SAMPLED_ALLOC);
}

static trace_table *alloc_dump_table(void) {
    if (!live) return NULL;
    JNIEnv *jni = current_jni();
    trace_table *t = jni ? alloc_live_store(jni) : NULL;
    if (!jni) log_warn("alloc,live: the dump runs on a thread the JVM does not know: live objects cannot be told apart");
    return t;
}

static void live_object_to_jfr(const alloc_live_object *o, void *arg) {
    uint64_t *unwritten = arg;
    if (!out_jfr_live_object(o->frames, o->depth, o->tid, o->ticks, o->size)) (*unwritten)++;
}

/* alloc,live in a JFR recording: the allocation samples stream as they come; the objects still reachable
 * become profiler.LiveObject events as it ends, as async-profiler writes them. */
static void alloc_recording_end(void) {
    if (!live) return;
    JNIEnv *jni = current_jni();
    if (!jni) {
        log_warn("alloc,live: the recording ends on a thread the JVM does not know: its live objects are not written");
        return;
    }
    uint64_t unwritten = 0;
    size_t n = alloc_live_visit(jni, live_object_to_jfr, &unwritten);
    if (unwritten)
        log_warn("alloc,live: %llu of %zu live objects could not be written to the recording (its trace table is full, "
                 "or writing it failed)",
                 (unsigned long long)unwritten, n);
    else log_info("alloc,live: %zu live objects written to the recording", n);
}

/* alloc=BYTES; interval= also sets it when alloc is the session's event (async-profiler's -e alloc -i N). */
static uint64_t alloc_option_interval(const prof_options *o, bool first) {
    return first && o->interval_ns && o->alloc_bytes == OPTIONS_DEFAULT_ALLOC_BYTES ? o->interval_ns : o->alloc_bytes;
}

const engine engine_alloc = {
    .name = "alloc",
    .event = EVENT_ALLOC,
    .units = ENGINE_UNITS_BYTES,
    .counts = ENGINE_ALLOC_COUNTS,
    .live_counts = ENGINE_LIVE_COUNTS,
    .option_interval = alloc_option_interval,
    .default_interval = OPTIONS_DEFAULT_ALLOC_BYTES,
    .delivery = ENGINE_DELIVERY_JVMTI_CALLBACK,
    .walks_from_callback = true,
    .check = alloc_check,
    .at_load = alloc_at_load,
    .start = alloc_start,
    .stop = alloc_stop,
    .dump_table = alloc_dump_table,
    .recording_end = alloc_recording_end,
};
