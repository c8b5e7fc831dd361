/*
 * api_jni: the JNI natives of the Java API, exported beside entry.c's agent entry points. Two classes
 * bind to them: our own dev.libprof.Profiler (java/api), and async-profiler's one.profiler.AsyncProfiler,
 * whose natives are its interface (names and signatures only): every integration that loads a profiler
 * library through that class (JMH's -prof async, continuous-profiling agents) drives libprof.so unchanged.
 *
 * System.load without -agentpath calls JNI_OnLoad and no agent entry point: JVMTI is then set up on the
 * first call, as in a dynamic attach (api_command.h).
 */
#define _GNU_SOURCE
#include "api_command.h"
#include "jvm.h"
#include "self_tid.h"

#include <dlfcn.h>
#include <jni.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define API_ERROR_MAX 1024

/* Natives bound into classes must stay mapped for the life of the process, whatever a class loader does. */
static void pin_library(void) {
    Dl_info info;
    if (dladdr((void *)pin_library, &info) && info.dli_fname)
        dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
}

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM *vm, void *reserved) {
    (void)vm, (void)reserved;
    pin_library();
    return JNI_VERSION_1_6;
}

static void throw_new(JNIEnv *env, const char *class_name, const char *message) {
    if ((*env)->ExceptionCheck(env)) return;
    jclass c = (*env)->FindClass(env, class_name);
    if (c) (*env)->ThrowNew(env, c, message);
}

/* The command's text and the VM, or NULL with a Java exception pending. */
static char *command_text(JNIEnv *env, jstring command) {
    if (!command) {
        throw_new(env, "java/lang/NullPointerException", "command");
        return NULL;
    }
    const char *utf = (*env)->GetStringUTFChars(env, command, NULL);
    if (!utf) return NULL;
    char *copy = strdup(utf);
    (*env)->ReleaseStringUTFChars(env, command, utf);
    if (!copy) throw_new(env, "java/lang/OutOfMemoryError", "libprof: command");
    return copy;
}

/* Runs 'command'; its output in *result, or NULL with IllegalArgumentException (a bad command) or
 * IllegalStateException (what the profiler could not do) pending. */
static int run(JNIEnv *env, const char *command, bool binary, api_result *result) {
    JavaVM *vm = NULL;
    char err[API_ERROR_MAX];
    if ((*env)->GetJavaVM(env, &vm) != JNI_OK) {
        throw_new(env, "java/lang/IllegalStateException", "libprof: no JavaVM for this thread");
        return -1;
    }
    if (api_execute(vm, command, binary, result, err, sizeof(err))) {
        throw_new(env, result->bad_command ? "java/lang/IllegalArgumentException" : "java/lang/IllegalStateException",
                  err);
        return -1;
    }
    return 0;
}

static jstring execute_string(JNIEnv *env, jstring command) {
    char *text = command_text(env, command);
    if (!text) return NULL;
    api_result r;
    jstring out = NULL;
    /* NewStringUTF reads modified UTF-8: profiles are ASCII and frame names the JVM's own UTF-8. */
    if (run(env, text, false, &r) == 0) out = (*env)->NewStringUTF(env, r.output ? r.output : "");
    free(r.output);
    free(text);
    return out;
}

static jbyteArray execute_bytes(JNIEnv *env, jstring command) {
    char *text = command_text(env, command);
    if (!text) return NULL;
    api_result r;
    jbyteArray out = NULL;
    if (run(env, text, true, &r) == 0 && (out = (*env)->NewByteArray(env, (jsize)r.length)) != NULL)
        (*env)->SetByteArrayRegion(env, out, 0, (jsize)r.length, (const jbyte *)r.output);
    free(r.output);
    free(text);
    return out;
}

/* 'thread' NULL: the calling thread. A thread not started or already ended is left alone. */
static void filter_thread(JNIEnv *env, jobject thread, jboolean enable) {
    JavaVM *vm = NULL;
    char err[API_ERROR_MAX];
    if ((*env)->GetJavaVM(env, &vm) != JNI_OK || api_init(vm, err, sizeof(err))) {
        throw_new(env, "java/lang/IllegalStateException", vm ? err : "libprof: no JavaVM for this thread");
        return;
    }
    int tid = thread ? jvm_thread_os_tid(env, thread) : self_tid();
    if (tid > 0 && api_filter_thread(tid, enable))
        throw_new(env, "java/lang/IllegalStateException", "libprof: cannot reserve the thread filter's storage");
}

/* ---- dev.libprof.Profiler (java/api/dev/libprof/Profiler.java) ---- */

JNIEXPORT jstring JNICALL Java_dev_libprof_Profiler_execute0(JNIEnv *env, jclass cls, jstring command) {
    (void)cls;
    return execute_string(env, command);
}

JNIEXPORT jbyteArray JNICALL Java_dev_libprof_Profiler_executeBytes0(JNIEnv *env, jclass cls, jstring command) {
    (void)cls;
    return execute_bytes(env, command);
}

JNIEXPORT jlong JNICALL Java_dev_libprof_Profiler_samples0(JNIEnv *env, jclass cls) {
    (void)env, (void)cls;
    return (jlong)api_samples();
}

JNIEXPORT void JNICALL Java_dev_libprof_Profiler_filterThread0(JNIEnv *env, jclass cls, jobject thread,
                                                               jboolean enable) {
    (void)cls;
    filter_thread(env, thread, enable);
}

/* ---- one.profiler.AsyncProfiler: async-profiler's API class, by its natives' names and signatures ---- */

/* start0(String event, long interval, boolean reset): start, or resume when reset is false. */
JNIEXPORT void JNICALL Java_one_profiler_AsyncProfiler_start0(JNIEnv *env, jobject self, jstring event,
                                                              jlong interval, jboolean reset) {
    (void)self;
    char *name = command_text(env, event);
    if (!name) return;
    char command[1024];
    int n = snprintf(command, sizeof(command), "%s,event=%s", reset ? "start" : "resume", name);
    if (interval > 0 && n > 0 && (size_t)n < sizeof(command))
        snprintf(command + n, sizeof(command) - (size_t)n, ",interval=%lld", (long long)interval);
    free(name);
    api_result r;
    if (run(env, command, false, &r) == 0) free(r.output);
}

/* stop0(): stops; the profile is asked for afterwards (dump, execute0), so the stop's own is dropped. */
JNIEXPORT void JNICALL Java_one_profiler_AsyncProfiler_stop0(JNIEnv *env, jobject self) {
    (void)self;
    api_result r;
    if (run(env, "stop", false, &r) == 0) free(r.output);
}

/* async-profiler's callers parse its metrics ('name value' lines, its names): a metrics command through its
 * class gets them unless it names a format itself. The command comes back as a new local string, or NULL
 * (the command as it is). */
static jstring asprof_command(JNIEnv *env, jstring command) {
    char *text = command ? command_text(env, command) : NULL;
    if (!text) return NULL;
    jstring out = NULL;
    size_t action = strcspn(text, ",");
    if (action == 7 && strncmp(text, "metrics", 7) == 0 && !strstr(text, "metricsformat=")) {
        size_t n = strlen(text) + sizeof(",metricsformat=asprof");
        char *with = malloc(n);
        if (with) {
            snprintf(with, n, "%s,metricsformat=asprof", text);
            out = (*env)->NewStringUTF(env, with);
            free(with);
        }
    }
    free(text);
    return out;
}

JNIEXPORT jstring JNICALL Java_one_profiler_AsyncProfiler_execute0(JNIEnv *env, jobject self, jstring command) {
    (void)self;
    jstring spelled = asprof_command(env, command);
    return execute_string(env, spelled ? spelled : command);
}

JNIEXPORT jbyteArray JNICALL Java_one_profiler_AsyncProfiler_execute1(JNIEnv *env, jobject self, jstring command) {
    (void)self;
    jstring spelled = asprof_command(env, command);
    return execute_bytes(env, spelled ? spelled : command);
}

JNIEXPORT jlong JNICALL Java_one_profiler_AsyncProfiler_getSamples(JNIEnv *env, jobject self) {
    (void)env, (void)self;
    return (jlong)api_samples();
}

JNIEXPORT void JNICALL Java_one_profiler_AsyncProfiler_filterThread0(JNIEnv *env, jobject self, jobject thread,
                                                                     jboolean enable) {
    (void)self;
    filter_thread(env, thread, enable);
}
