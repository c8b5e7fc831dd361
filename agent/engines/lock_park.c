#include "lock_park.h"

#include "classfile.h"
#include "clock_ns.h"
#include "engine_instrument.h"
#include "event_kind.h"
#include "class_rewrite.h"
#include "instrument_helper.h"
#include "java_stack.h"
#include "jvm.h"
#include "jvmti_events.h"
#include "lock_sample.h"
#include "log.h"
#include "sample.h"
#include "sample_cost.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LOCK_SUPPORT "java/util/concurrent/locks/LockSupport"

static _Atomic bool active;          /* the hook rewrites LockSupport */
static _Atomic bool recording;
static jfieldID park_blocker;        /* java.lang.Thread.parkBlocker */
static __thread uint64_t park_started;
static bool vm_dying;

void lock_park_vm_death(void) {
    vm_dying = true;
}

/* Whether a park on 'blocker' waits for a lock: a ReentrantLock, a ReentrantReadWriteLock or a Semaphore
 * (their synchronizers: ReentrantLock$NonfairSync...), as async-profiler counts them. The other blockers are
 * waits for work or for an event (an idle pool's SynchronousQueue, Condition.await, CountDownLatch.await),
 * which would make idle threads look contended. */
static bool lock_blocker(JNIEnv *jni, jobject blocker) {
    jvmtiEnv *jvmti = jvm_jvmti();
    jclass klass = (*jni)->GetObjectClass(jni, blocker);
    char *signature = NULL;
    bool lock = false;
    if (klass && (*jvmti)->GetClassSignature(jvmti, klass, &signature, NULL) == JVMTI_ERROR_NONE && signature) {
        lock = strncmp(signature, "Ljava/util/concurrent/locks/Reentrant", 37) == 0 ||
               strncmp(signature, "Ljava/util/concurrent/Semaphore", 31) == 0;
        (*jvmti)->Deallocate(jvmti, (unsigned char *)signature);
    }
    if (klass) (*jni)->DeleteLocalRef(jni, klass);
    return lock;
}

static void record_park(JNIEnv *jni, jobject blocker, uint64_t weight, uint64_t waited) {
    if (!sample_enter()) {
        sample_leave();
        return;
    }
    uint64_t started = sample_cost_now();
    trace_frame *frames = NULL;
    /* The stack from setBlocker's caller: the helper's native frame and setBlocker are left out. */
    uint32_t n = java_stack_take(jni, true, 1, false, &frames);
    if (n > 1 && frames[1].kind == FRAME_JAVA) {
        frames++;   /* setBlocker itself */
        n--;
    }
    if (n) {
        jclass klass = (*jni)->GetObjectClass(jni, blocker);
        frames[0] = (trace_frame){jvmti_events_class_id(jvm_jvmti(), klass), 0, FRAME_CLASS_PARK};
        if (klass) (*jni)->DeleteLocalRef(jni, klass);
        sample_store_wait(frames, n + 1, weight, waited, started);
    }
    sample_leave();
}

/* libprof/Instrument.parkEdge(), at the start of LockSupport.setBlocker. */
static void JNICALL park_edge(JNIEnv *jni, jclass helper) {
    (void)helper;
    if (!atomic_load_explicit(&recording, memory_order_acquire)) return;
    jthread thread = NULL;
    jvmtiEnv *jvmti = jvm_jvmti();
    if ((*jvmti)->GetCurrentThread(jvmti, &thread) != JVMTI_ERROR_NONE || !thread) return;
    jobject blocker = (*jni)->GetObjectField(jni, thread, park_blocker);
    uint64_t now = clock_mono_ns();
    if (!blocker) {
        park_started = now;   /* a park begins (or a park() without blocker: nothing to report) */
    } else {
        uint64_t since = park_started;
        park_started = 0;
        uint64_t weight;
        if (since && lock_blocker(jni, blocker) && lock_sample_pick(now - since, &weight))
            record_park(jni, blocker, weight, now - since);
        (*jni)->DeleteLocalRef(jni, blocker);
    }
    (*jni)->DeleteLocalRef(jni, thread);
}

static bool select_set_blocker(const char *class_name, const char *method, const char *descriptor, void *arg) {
    (void)arg;
    return strcmp(class_name, LOCK_SUPPORT) == 0 && strcmp(method, "setBlocker") == 0 &&
           strcmp(descriptor, "(Ljava/lang/Thread;Ljava/lang/Object;)V") == 0;
}

bool lock_park_class_file_load_hook(jvmtiEnv *jvmti, const char *name, jint class_data_len,
                                    const unsigned char *class_data, jint *new_class_data_len,
                                    unsigned char **new_class_data) {
    if (!name || strcmp(name, LOCK_SUPPORT) != 0 || class_data_len <= 0) return false;
    if (!atomic_load(&active)) return true;   /* retransformed back: its original bytes */
    uint8_t *out = NULL;
    size_t out_len = 0;
    int methods = 0;
    char why[256] = "";
    classfile_result r = classfile_instrument(class_data, (size_t)class_data_len, INSTRUMENT_HELPER_CLASS,
                                              INSTRUMENT_HELPER_PARK_METHOD, select_set_blocker, NULL, &out, &out_len,
                                              &methods, why, sizeof(why));
    if (!(r == CLASSFILE_REWRITTEN && out && methods == 1 &&
          class_rewrite_hand_over(jvmti, out, out_len, new_class_data_len, new_class_data))) {
        log_warn("lock: %s left unchanged (%s): parking is not recorded", LOCK_SUPPORT,
                 r == CLASSFILE_REFUSED ? why : "no setBlocker(Thread, Object) found");
    }
    free(out);
    return true;
}

static int retransform_lock_support(JNIEnv *jni, char *err, size_t errlen) {
    jvmtiEnv *jvmti = jvm_jvmti();
    jclass k = (*jni)->FindClass(jni, LOCK_SUPPORT);
    if (!k) {
        (*jni)->ExceptionClear(jni);
        snprintf(err, errlen, "lock: %s not found", LOCK_SUPPORT);
        return -1;
    }
    jvmtiError e = (*jvmti)->RetransformClasses(jvmti, 1, &k);
    (*jni)->DeleteLocalRef(jni, k);
    if ((*jni)->ExceptionCheck(jni)) (*jni)->ExceptionClear(jni);
    if (e != JVMTI_ERROR_NONE) {
        snprintf(err, errlen, "lock: cannot retransform %s (JVMTI error %d)", LOCK_SUPPORT, (int)e);
        return -1;
    }
    return 0;
}

static JNIEnv *current_jni(void) {
    JNIEnv *jni = NULL;
    JavaVM *vm = jvm_vm();
    return vm && (*vm)->GetEnv(vm, (void **)&jni, JNI_VERSION_1_6) == JNI_OK ? jni : NULL;
}

int lock_park_start(char *err, size_t errlen) {
    JNIEnv *jni = current_jni();
    jvmtiEnv *jvmti = jvm_jvmti();
    if (!jni) {
        snprintf(err, errlen, "lock: parking is recorded only when profiling starts from a Java thread");
        return -1;
    }
    if (engine_instrument_capabilities("lock (parking)", err, errlen) ||
        instrument_helper_bind_park(jni, jvmti, park_edge, err, errlen))
        return -1;
    jclass thread_class = (*jni)->FindClass(jni, "java/lang/Thread");
    park_blocker = thread_class ? (*jni)->GetFieldID(jni, thread_class, "parkBlocker", "Ljava/lang/Object;") : NULL;
    if (thread_class) (*jni)->DeleteLocalRef(jni, thread_class);
    if (!park_blocker) {
        (*jni)->ExceptionClear(jni);
        snprintf(err, errlen, "lock: java.lang.Thread has no parkBlocker field here: parking is not recorded");
        return -1;
    }
    instrument_helper_open_modules(jni, jvmti);
    atomic_store(&active, true);
    atomic_store_explicit(&recording, true, memory_order_release);
    if (jvmti_events_enable(JVMTI_EVENT_CLASS_FILE_LOAD_HOOK, true, "lock (parking)", err, errlen) ||
        retransform_lock_support(jni, err, errlen)) {
        atomic_store(&recording, false);
        atomic_store(&active, false);
        return -1;
    }
    return 0;
}

void lock_park_stop(void) {
    atomic_store(&recording, false);
    if (vm_dying || !atomic_exchange(&active, false)) return;
    char err[256];
    JNIEnv *jni = current_jni();
    /* The hook now passes LockSupport through: retransforming gives its original code back. */
    if (!jni || retransform_lock_support(jni, err, sizeof(err)))
        log_info("lock: LockSupport keeps its (inactive) calls to the agent");
}
