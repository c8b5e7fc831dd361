/*
 * api_span: the natives behind spans, the intervals an application marks on a thread ("this request")
 * that a JFR session records as profiler.Span events. Two classes bind to them: async-profiler's
 * one.profiler.Recording (its natives' names and signatures, and its static 'state' field: 0 no profiler,
 * 1 no JFR session, 2 recording), so its Span class works against libprof.so unchanged, and our own
 * dev.libprof.Span, which keeps the same state field.
 *
 * The state is pushed into every class that registered (out_jfr tells when a recording opens and closes),
 * so the Java side decides without a native call whether a span can be recorded at all. A class loaded
 * before the library (the profiler attached later) could not link its natives: when a recording opens,
 * the loaded classes are searched and their natives registered by hand. Span times are System.nanoTime's
 * (CLOCK_MONOTONIC ns, what async-profiler's Recording.timestamp gives unless told otherwise); they are
 * turned into the events' clock (event_clock.h), which may be offset or count the timestamp counter.
 */
#define _GNU_SOURCE
#include "api_command.h"
#include "clock_ns.h"
#include "event_clock.h"
#include "jvm.h"
#include "out_jfr.h"
#include "rate_limit.h"
#include "self_tid.h"
#include "span_clock_claim.h"
#include "span_tags.h"

#include <jni.h>
#include <jvmti.h>
#include <pthread.h>
#include <stdbool.h>
#include <string.h>

enum { STATE_STOPPED = 1, STATE_RUNNING = 2 };
#define MAX_CLASSES 16   /* one per class loader that loaded a span class: a few at most */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static jclass classes[MAX_CLASSES];   /* global references */
static int class_count;

static void set_state(JNIEnv *env, jclass cls, int state) {
    jfieldID f = (*env)->GetStaticFieldID(env, cls, "state", "I");
    if (f) (*env)->SetStaticIntField(env, cls, f, state);
    else (*env)->ExceptionClear(env);
}

static bool known(JNIEnv *env, jclass cls) {
    for (int i = 0; i < class_count; i++)
        if ((*env)->IsSameObject(env, classes[i], cls)) return true;
    return false;
}

static void remember(JNIEnv *env, jclass cls) {
    pthread_mutex_lock(&lock);
    if (class_count < MAX_CLASSES && !known(env, cls)) {
        jclass g = (*env)->NewGlobalRef(env, cls);
        if (g) classes[class_count++] = g;
    }
    pthread_mutex_unlock(&lock);
}

/* A CLOCK_MONOTONIC time as the event clock's ticks, by its distance from now. */
static uint64_t event_ticks_of(uint64_t mono_ns) {
    uint64_t now = clock_mono_ns(), ticks = event_clock_now();
    return mono_ns <= now ? ticks - event_clock_ticks_of_ns(now - mono_ns) : ticks + event_clock_ticks_of_ns(mono_ns - now);
}

static void record_span(JNIEnv *env, jlong start, jlong end, jstring tag) {
    if (!rate_limit_allow(RATE_LIMIT_SPAN)) return;   /* ratelimit=span:N */
    const char *utf = tag ? (*env)->GetStringUTFChars(env, tag, NULL) : NULL;
    if (tag && !utf) return;   /* OutOfMemoryError pending */
    uint64_t key = span_tags_key(utf);
    if (utf) (*env)->ReleaseStringUTFChars(env, tag, utf);
    if (key != UINT64_MAX)
        out_jfr_span((uint32_t)self_tid(), event_ticks_of((uint64_t)start), event_ticks_of((uint64_t)end), key);
}

static jobject thread_clock(JNIEnv *env) {
    _Atomic uint64_t *slot = span_clock_claim((uint32_t)self_tid());
    return slot ? (*env)->NewDirectByteBuffer(env, (void *)slot, sizeof(uint64_t)) : NULL;
}

static jint register_class(JNIEnv *env, jclass cls) {
    remember(env, cls);
    return out_jfr_active() ? STATE_RUNNING : STATE_STOPPED;
}

/* ---- one.profiler.Recording ---- */

JNIEXPORT jint JNICALL Java_one_profiler_Recording_registerNatives(JNIEnv *env, jclass cls) {
    return register_class(env, cls);
}

JNIEXPORT jobject JNICALL Java_one_profiler_Recording_getThreadLocalBuffer(JNIEnv *env, jclass cls) {
    (void)cls;
    return thread_clock(env);
}

JNIEXPORT void JNICALL Java_one_profiler_Recording_emitSpan(JNIEnv *env, jclass cls, jlong start, jlong end,
                                                           jstring tag) {
    (void)cls;
    record_span(env, start, end, tag);
}

/* ---- dev.libprof.Span (java/api/dev/libprof/Span.java) ---- */

JNIEXPORT jint JNICALL Java_dev_libprof_Span_register0(JNIEnv *env, jclass cls) {
    return register_class(env, cls);
}

JNIEXPORT jobject JNICALL Java_dev_libprof_Span_threadClock0(JNIEnv *env, jclass cls) {
    (void)cls;
    return thread_clock(env);
}

JNIEXPORT void JNICALL Java_dev_libprof_Span_emit0(JNIEnv *env, jclass cls, jlong start, jlong end, jstring tag) {
    (void)cls;
    record_span(env, start, end, tag);
}

/* ---- classes loaded before the library ---- */

typedef struct {
    const char *signature;
    JNINativeMethod methods[3];
} span_class;

static const span_class SPAN_CLASSES[] = {
    {"Lone/profiler/Recording;",
     {{"registerNatives", "()I", (void *)Java_one_profiler_Recording_registerNatives},
      {"getThreadLocalBuffer", "()Ljava/nio/ByteBuffer;", (void *)Java_one_profiler_Recording_getThreadLocalBuffer},
      {"emitSpan", "(JJLjava/lang/String;)V", (void *)Java_one_profiler_Recording_emitSpan}}},
    {"Ldev/libprof/Span;",
     {{"register0", "()I", (void *)Java_dev_libprof_Span_register0},
      {"threadClock0", "()Ljava/nio/ByteBuffer;", (void *)Java_dev_libprof_Span_threadClock0},
      {"emit0", "(JJLjava/lang/String;)V", (void *)Java_dev_libprof_Span_emit0}}},
};

/* Binds the natives of every loaded span class this library has not seen. */
static void adopt_loaded(JNIEnv *env) {
    jvmtiEnv *jvmti = jvm_jvmti();
    jint count = 0;
    jclass *loaded = NULL;
    if (!jvmti || (*jvmti)->GetLoadedClasses(jvmti, &count, &loaded) != JVMTI_ERROR_NONE) return;
    jvm_plan_local_refs(env, count);
    for (jint i = 0; i < count; i++) {
        char *sig = NULL;
        if ((*jvmti)->GetClassSignature(jvmti, loaded[i], &sig, NULL) == JVMTI_ERROR_NONE && sig) {
            for (size_t k = 0; k < sizeof(SPAN_CLASSES) / sizeof(SPAN_CLASSES[0]); k++) {
                if (strcmp(sig, SPAN_CLASSES[k].signature) != 0) continue;
                pthread_mutex_lock(&lock);
                bool seen = known(env, loaded[i]);
                pthread_mutex_unlock(&lock);
                if (seen) break;
                if ((*env)->RegisterNatives(env, loaded[i], SPAN_CLASSES[k].methods, 3) == 0) remember(env, loaded[i]);
                else (*env)->ExceptionClear(env);
                break;
            }
            (*jvmti)->Deallocate(jvmti, (unsigned char *)sig);
        }
        (*env)->DeleteLocalRef(env, loaded[i]);
    }
    (*jvmti)->Deallocate(jvmti, (unsigned char *)loaded);
}

static void on_recording(bool recording) {
    JavaVM *vm = jvm_vm();
    JNIEnv *env = NULL;
    /* Before VMInit no Java class can have registered; from VMDeath on, nothing reads the state. */
    if (!vm || !jvm_is_live() || jvm_is_dying()) return;
    bool attached = false;
    if ((*vm)->GetEnv(vm, (void **)&env, JNI_VERSION_1_6) != JNI_OK) {
        if (!(env = jvm_attach_current_thread())) return;
        attached = true;
    }
    if (recording) adopt_loaded(env);
    pthread_mutex_lock(&lock);
    for (int i = 0; i < class_count; i++) set_state(env, classes[i], recording ? STATE_RUNNING : STATE_STOPPED);
    pthread_mutex_unlock(&lock);
    if (attached) jvm_detach_current_thread();
}

/* The session opens JFR recordings whether or not a span class ever registered: a class loaded before the
 * library is found at the first recording. */
__attribute__((constructor)) static void listen_early(void) {
    out_jfr_listen(on_recording);
}
