#include "jvm_callbacks.h"

#include "engine_instrument.h"
#include "jvm.h"
#include "jvmti_events.h"
#include "lock_park.h"
#include "profiler.h"

/* Instrumentation and park tracking finish their own work before the session dumps. */
static void on_vm_dying(void) {
    engine_instrument_vm_death();
    lock_park_vm_death();
    profiler_on_vm_death();
}

int jvm_callbacks_init(JavaVM *vm, bool live, char *err, size_t errlen) {
    static const jvm_listeners listeners = {
        .class_prepared = engine_instrument_class_prepare,
        .thread_started = profiler_on_thread_start,
        .thread_ended = profiler_on_thread_end,
        .vm_started = profiler_on_vm_init,
        .vm_dying = on_vm_dying,
        .class_file_load_hook = engine_instrument_class_file_load_hook,   /* enabled while instrumenting */
        .sampled_object_alloc = engine_alloc_on_sample,                   /* enabled while profiling alloc */
        .monitor_contended_enter = engine_lock_on_contended_enter,        /* enabled while profiling lock */
        .monitor_contended_entered = engine_lock_on_contended_entered,
    };
    return jvm_init(vm, live, &listeners, err, errlen);
}
