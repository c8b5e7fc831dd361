#include "jvm_threads.h"

#include "jvm.h"
#include "thread_dump.h"
#include "threads.h"
#include "u64map.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static u64map refs;   /* tid -> jweak to its java.lang.Thread */

/* java.lang.Thread's id (Thread.getId()), read from its 'tid' field (JDK 17 to 25); 0 when unknown. */
static long long java_thread_id(JNIEnv *jni, jthread thread) {
    static jfieldID tid_field;
    static bool looked_up;
    if (!looked_up) {
        jclass c = (*jni)->FindClass(jni, "java/lang/Thread");
        if (c) {
            tid_field = (*jni)->GetFieldID(jni, c, "tid", "J");
            (*jni)->DeleteLocalRef(jni, c);
        }
        if ((*jni)->ExceptionCheck(jni)) (*jni)->ExceptionClear(jni);
        looked_up = true;
    }
    return tid_field && thread ? (long long)(*jni)->GetLongField(jni, thread, tid_field) : 0;
}

/* Records the thread's name now, and its Java id when it starts. */
static void record_name(jvmtiEnv *env, JNIEnv *jni, jthread thread, int tid, bool starting) {
    jvmtiThreadInfo info;
    if ((*env)->GetThreadInfo(env, thread, &info) != JVMTI_ERROR_NONE) return;
    if (info.name) {
        /* like its name, the main thread keeps its id when it comes back as DestroyJavaVM */
        if (starting && strcmp(info.name, "DestroyJavaVM") != 0)
            threads_set_java_id(tid, java_thread_id(jni, thread));
        threads_set_name(tid, info.name);
        (*env)->Deallocate(env, (unsigned char *)info.name);
    }
    /* Local references in the info must not pile up in a long-lived thread's frame. */
    if (info.thread_group) (*jni)->DeleteLocalRef(jni, info.thread_group);
    if (info.context_class_loader) (*jni)->DeleteLocalRef(jni, info.context_class_loader);
}

void jvm_threads_track(jvmtiEnv *env, JNIEnv *jni, jthread thread, int tid) {
    if (!thread || tid <= 0) return;
    record_name(env, jni, thread, tid, true);
    jweak ref = (*jni)->NewWeakGlobalRef(jni, thread);
    if (!ref) return;
    uint64_t old = 0;
    pthread_mutex_lock(&lock);
    bool replaced = u64map_get(&refs, (uint64_t)tid, &old);
    bool kept = u64map_put(&refs, (uint64_t)tid, (uint64_t)(uintptr_t)ref) == 0;
    pthread_mutex_unlock(&lock);
    if (!kept) (*jni)->DeleteWeakGlobalRef(jni, ref);
    else if (replaced) (*jni)->DeleteWeakGlobalRef(jni, (jweak)(uintptr_t)old);
}

void jvm_threads_untrack(jvmtiEnv *env, JNIEnv *jni, jthread thread, int tid) {
    if (thread) record_name(env, jni, thread, tid, false);
    uint64_t ref;
    pthread_mutex_lock(&lock);
    bool had = u64map_remove(&refs, (uint64_t)tid, &ref);
    pthread_mutex_unlock(&lock);
    if (had) (*jni)->DeleteWeakGlobalRef(jni, (jweak)(uintptr_t)ref);
}

static void complete_cut_os_names(JNIEnv *jni);

void jvm_threads_refresh_names(void) {
    JavaVM *vm = jvm_vm();
    jvmtiEnv *env = jvm_jvmti();
    JNIEnv *jni = NULL;
    if (!vm || !env || (*vm)->GetEnv(vm, (void **)&jni, JNI_VERSION_1_6) != JNI_OK || !jni) return;
    /* Local references to the live threads, taken under the lock so none is deleted while in use; the
     * JVM is asked for names only after the lock is released. */
    pthread_mutex_lock(&lock);
    size_t n = 0, cap = refs.count;
    int *tids = malloc((cap ? cap : 1) * sizeof(int));
    jthread *threads = malloc((cap ? cap : 1) * sizeof(jthread));
    if (tids && threads && (*jni)->PushLocalFrame(jni, (jint)cap + 16) == 0) {
        for (size_t i = 0; i < refs.capacity && n < cap; i++) {
            if (!refs.keys[i]) continue;
            jthread t = (*jni)->NewLocalRef(jni, (jweak)(uintptr_t)refs.values[i]);
            if (!t) continue;   /* already collected: its last name is recorded */
            tids[n] = (int)refs.keys[i];
            threads[n++] = t;
        }
        pthread_mutex_unlock(&lock);
        for (size_t i = 0; i < n; i++) {
            /* An ended thread's id may belong to a new thread now; its last name was recorded as it ended. */
            jint state = 0;
            jvmtiError err = (*env)->GetThreadState(env, threads[i], &state);
            if (err == JVMTI_ERROR_NONE && (state & JVMTI_THREAD_STATE_ALIVE))
                record_name(env, jni, threads[i], tids[i], false);
        }
        (*jni)->PopLocalFrame(jni, NULL);
    } else {
        pthread_mutex_unlock(&lock);
        if ((*jni)->ExceptionCheck(jni)) (*jni)->ExceptionClear(jni);
    }
    free(tids);
    free(threads);
    complete_cut_os_names(jni);
}

/* The JVM's thread dump (the Thread.print diagnostic command) as text, through the JDK's own diagnostic
 * command bean implementation called by JNI (which ignores module boundaries): the only source of the
 * names of threads JVMTI hides, such as "C2 CompilerThread0". Costs a safepoint and a dump of every
 * stack, so it is asked for only when a thread with a cut OS name is new. NULL when the JDK lacks the
 * jdk.management module or anything fails (the OS names stay). Caller frees. */
static char *thread_dump_text(JNIEnv *jni) {
    char *text = NULL;
    if ((*jni)->PushLocalFrame(jni, 16) != 0) {
        (*jni)->ExceptionClear(jni);
        return NULL;
    }
    jclass provider = (*jni)->FindClass(jni, "com/sun/management/internal/PlatformMBeanProviderImpl");
    /* Initialising the provider loads libmanagement_ext, which implements executeDiagnosticCommand; a
     * missing library shows as an UnsatisfiedLinkError below, cleared like any other failure. */
    if (provider)
        (*jni)->GetStaticFieldID(jni, provider, "hsDiagMBean", "Lcom/sun/management/internal/HotSpotDiagnostic;");
    if ((*jni)->ExceptionCheck(jni)) (*jni)->ExceptionClear(jni);
    jclass impl = (*jni)->FindClass(jni, "com/sun/management/internal/DiagnosticCommandImpl");
    jmethodID execute = impl ? (*jni)->GetMethodID(jni, impl, "executeDiagnosticCommand",
                                                   "(Ljava/lang/String;)Ljava/lang/String;")
                             : NULL;
    /* The native method uses no field of its object: one allocated without a constructor will do. */
    jobject bean = execute ? (*jni)->AllocObject(jni, impl) : NULL;
    jstring command = bean ? (*jni)->NewStringUTF(jni, "Thread.print") : NULL;
    jstring dump = command ? (*jni)->CallObjectMethod(jni, bean, execute, command) : NULL;
    const char *chars = dump && !(*jni)->ExceptionCheck(jni) ? (*jni)->GetStringUTFChars(jni, dump, NULL) : NULL;
    if (chars) {
        text = strdup(chars);
        (*jni)->ReleaseStringUTFChars(jni, dump, chars);
    }
    if ((*jni)->ExceptionCheck(jni)) (*jni)->ExceptionClear(jni);
    (*jni)->PopLocalFrame(jni, NULL);
    return text;
}

/* Before JDK 17 the thread dump reads the CPU clock of every GC thread, also of those the JVM has stopped
 * at exit: asked for during VMDeath (a profile written at exit), it crashes the JVM (SIGSEGV in
 * pthread_getcpuclockid, seen on JDK 11.0.32). There the cut OS names stay. */
static bool thread_dump_is_safe(void) {
    return !jvm_is_dying() || jvm_feature_version() >= 17;
}

static void complete_name(int tid, const char *name, void *arg) {
    (void)arg;
    threads_complete_os_name(tid, name);
}

/* Threads JVMTI does not report (compiler threads, and JVM-internal threads such as "VM Periodic Task
 * Thread") are known by their OS names, cut to 15 characters: complete them from the thread dump. */
static void complete_cut_os_names(JNIEnv *jni) {
    threads_snapshot_os_names();   /* threads started since the last look, such as added compiler threads */
    if (!threads_has_cut_os_names() || !thread_dump_is_safe()) return;
    char *dump = thread_dump_text(jni);
    if (dump) thread_dump_parse(dump, complete_name, NULL);
    free(dump);
    /* One dump per new cut name, not one per profile: a native thread's cut name stays cut. */
    threads_settle_os_names();
}
