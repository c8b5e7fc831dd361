/*
 * thread_state_init: finds, in the VM structure tables, what signal/thread_state_read needs to read a
 * Java thread's state, and installs it. Outside handlers, when the wall engine starts.
 */
#include "thread_state_init.h"

#include "jvm.h"
#include "thread_state_read.h"
#include "vmstructs.h"

#include <stdio.h>

static bool constant(const char *name, int *out) {
    int64_t v;
    if (!vmstructs_int_constant(name, &v)) return false;
    *out = (int)v;
    return true;
}

/* Where HotSpot keeps a thread's JNIEnv inside its JavaThread, when the tables do not say (JDK 17 does
 * not): the calling Java thread's JNIEnv minus its JavaThread, which java.lang.Thread.eetop holds. */
static bool env_offset_of_current(uint64_t *offset) {
    JavaVM *vm = jvm_vm();
    jvmtiEnv *jvmti = jvm_jvmti();
    JNIEnv *jni = NULL;
    jthread self = NULL;
    if (!vm || !jvmti || (*vm)->GetEnv(vm, (void **)&jni, JNI_VERSION_1_6) != JNI_OK ||
        (*jvmti)->GetCurrentThread(jvmti, &self) != JVMTI_ERROR_NONE || !self)
        return false;
    jclass thread_class = (*jni)->FindClass(jni, "java/lang/Thread");
    jfieldID eetop = thread_class ? (*jni)->GetFieldID(jni, thread_class, "eetop", "J") : NULL;
    jlong java_thread = eetop ? (*jni)->GetLongField(jni, self, eetop) : 0;
    if ((*jni)->ExceptionCheck(jni)) (*jni)->ExceptionClear(jni);
    if (thread_class) (*jni)->DeleteLocalRef(jni, thread_class);
    (*jni)->DeleteLocalRef(jni, self);
    if (!java_thread || (uintptr_t)jni < (uintptr_t)java_thread || (uintptr_t)jni - (uintptr_t)java_thread > 65536)
        return false;
    *offset = (uintptr_t)jni - (uintptr_t)java_thread;
    return true;
}

bool thread_state_env_offset(uint64_t *offset) {
    return vmstructs_field_offset("JavaThread", "_jni_environment", offset) || env_offset_of_current(offset);
}

/* Thread.sleep's native method in this JDK: sleep(J)V (17), sleep0(J)V (21), sleepNanos0(J)V (25). */
static void find_sleep_methods(uint64_t out[3]) {
    JavaVM *vm = jvm_vm();
    JNIEnv *jni = NULL;
    out[0] = out[1] = out[2] = 0;
    if (!vm || (*vm)->GetEnv(vm, (void **)&jni, JNI_VERSION_1_6) != JNI_OK) return;
    jclass thread_class = (*jni)->FindClass(jni, "java/lang/Thread");
    if (!thread_class) {
        (*jni)->ExceptionClear(jni);
        return;
    }
    const char *names[3] = {"sleep", "sleep0", "sleepNanos0"};
    for (int i = 0; i < 3; i++) {
        jmethodID m = (*jni)->GetStaticMethodID(jni, thread_class, names[i], "(J)V");
        if ((*jni)->ExceptionCheck(jni)) (*jni)->ExceptionClear(jni);
        out[i] = (uint64_t)(uintptr_t)m;
    }
    (*jni)->DeleteLocalRef(jni, thread_class);
}

int thread_state_init(char *err, size_t errlen) {
    thread_state_layout l;
    const char *missing = NULL;
    if (vmstructs_init(err, errlen)) return -1;
    if (!thread_state_env_offset(&l.env_offset))
        missing = "JavaThread::_jni_environment (and eetop of the current thread)";
    else if (!vmstructs_field_offset("JavaThread", "_thread_state", &l.java_state_offset))
        missing = "JavaThread::_thread_state";
    else if (!vmstructs_field_offset("JavaThread", "_osthread", &l.osthread_offset) &&
             !vmstructs_field_offset("Thread", "_osthread", &l.osthread_offset))
        missing = "Thread::_osthread";
    else if (!vmstructs_field_offset("OSThread", "_state", &l.os_state_offset)) missing = "OSThread::_state";
    else if (!constant("_thread_in_native", &l.in_native) || !constant("_thread_blocked", &l.blocked))
        missing = "the JavaThreadState constants";
    if (missing) {
        snprintf(err, errlen, "this JVM does not describe %s", missing);
        return -1;
    }
    /* The transition states follow their state (HotSpot's JavaThreadState: each odd value is the even one's
     * _trans); OSThread's ThreadState is not in the tables: its order has been the same since JDK 6
     * (osThread.hpp: ALLOCATED, INITIALIZED, RUNNABLE, MONITOR_WAIT, CONDVAR_WAIT, OBJECT_WAIT,
     * BREAKPOINTED, SLEEPING, ZOMBIE). */
    l.in_native_trans = l.in_native + 1;
    l.blocked_trans = l.blocked + 1;
    if (!constant("MONITOR_WAIT", &l.os_monitor_wait)) l.os_monitor_wait = 3;
    if (!constant("CONDVAR_WAIT", &l.os_condvar_wait)) l.os_condvar_wait = 4;
    if (!constant("OBJECT_WAIT", &l.os_object_wait)) l.os_object_wait = 5;
    if (!constant("SLEEPING", &l.os_sleeping)) l.os_sleeping = 7;
    find_sleep_methods(l.sleep_methods);
    thread_state_set_layout(&l);
    return 0;
}
