#include "jvm_callbacks.h"

#include "engine_instrument.h"
#include "engine_trace.h"
#include "jvm.h"
#include "jvmti_events.h"
#include "lock_park.h"
#include "profiler.h"

/* Every class file rewrite in one place: LockSupport is the lock engine's (its parks), any other class the
 * instrumentation engine's. */
static void JNICALL on_class_file_load(jvmtiEnv *jvmti, JNIEnv *jni, jclass class_being_redefined, jobject loader,
                                       const char *name, jobject protection_domain, jint class_data_len,
                                       const unsigned char *class_data, jint *new_class_data_len,
                                       unsigned char **new_class_data) {
    if (lock_park_class_file_load_hook(jvmti, name, class_data_len, class_data, new_class_data_len, new_class_data) ||
        engine_trace_class_file_load_hook(jvmti, name, class_data_len, class_data, new_class_data_len, new_class_data))
        return;
    engine_instrument_class_file_load_hook(jvmti, jni, class_being_redefined, loader, name, protection_domain,
                                           class_data_len, class_data, new_class_data_len, new_class_data);
}

/* Instrumentation and park tracking finish their own work before the session dumps. */
static void on_class_prepared(JNIEnv *jni) {
    engine_instrument_class_prepare(jni);
    engine_trace_class_prepare(jni);
}

static void on_vm_dying(void) {
    engine_instrument_vm_death();
    engine_trace_vm_death();
    lock_park_vm_death();
    profiler_on_vm_death();
}

int jvm_callbacks_init(JavaVM *vm, bool live, char *err, size_t errlen) {
    static const jvm_listeners listeners = {
        .class_prepared = on_class_prepared,
        .thread_started = profiler_on_thread_start,
        .thread_ended = profiler_on_thread_end,
        .vm_started = profiler_on_vm_init,
        .vm_dying = on_vm_dying,
        .class_file_load_hook = on_class_file_load,   /* enabled while instrumenting or tracking parks */
        .sampled_object_alloc = engine_alloc_on_sample,                   /* enabled while profiling alloc */
        .monitor_contended_enter = engine_lock_on_contended_enter,        /* enabled while profiling lock */
        .monitor_contended_entered = engine_lock_on_contended_entered,
    };
    return jvm_init(vm, live, &listeners, err, errlen);
}
