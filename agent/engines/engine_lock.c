/*
 * engine_lock: contended `synchronized` monitors through JVMTI MonitorContendedEnter (a thread starts
 * waiting for a monitor another thread owns) and MonitorContendedEntered (it got it), both on the waiting
 * thread, outside signal handlers. The time between them is the wait; lock_sample.h picks the waits
 * recorded and their weight in ns (lock=DURATION: one per DURATION of accumulated waiting). The sample is
 * the waiting thread's Java stack (java_stack.h) with the monitor object's class as its leaf
 * (FRAME_CLASS_MONITOR).
 *
 * Parking (java.util.concurrent locks, LockSupport.park) has no JVMTI event: lock_park.h times it through
 * a rewritten LockSupport.setBlocker, with the blocker's class as the leaf (FRAME_CLASS_PARK).
 */
#include "engine.h"
#include "clock_ns.h"
#include "java_stack.h"
#include "jvm.h"
#include "jvmti_events.h"
#include "lock_park.h"
#include "lock_sample.h"
#include "log.h"
#include "sample.h"
#include "sample_cost.h"

#include <stdatomic.h>
#include <stdio.h>

static _Atomic bool recording;
/* When this thread began to wait for the monitor it is entering; 0 when it is not waiting. */
static __thread uint64_t wait_started;

void JNICALL engine_lock_on_contended_enter(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jobject object) {
    (void)jvmti, (void)jni, (void)thread, (void)object;
    if (atomic_load_explicit(&recording, memory_order_acquire)) wait_started = clock_mono_ns();
}

void JNICALL engine_lock_on_contended_entered(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jobject object) {
    (void)thread;
    uint64_t started_wait = wait_started;
    wait_started = 0;
    if (!started_wait || !atomic_load_explicit(&recording, memory_order_acquire)) return;
    uint64_t weight, waited = clock_mono_ns() - started_wait;
    if (!lock_sample_pick(waited, &weight)) return;
    if (sample_enter()) {
        uint64_t started = sample_cost_now();
        trace_frame *frames = NULL;
        uint32_t n = java_stack_take(jni, false, 1, false, &frames);
        if (n) {
            jclass klass = (*jni)->GetObjectClass(jni, object);
            frames[0] = (trace_frame){jvmti_events_class_id(jvmti, klass), 0, FRAME_CLASS_MONITOR};
            if (klass) (*jni)->DeleteLocalRef(jni, klass);
            sample_store_wait(frames, n + 1, weight, waited, started);
        }
    }
    sample_leave();
}

static int lock_check(const prof_options *o, char *err, size_t errlen) {
    (void)o;
    return jvmti_events_add_capability(JVMTI_CAP_MONITOR_EVENTS, "lock", err, errlen);
}

static int lock_start(const prof_options *o, uint64_t interval, char *err, size_t errlen) {
    (void)o;
    lock_sample_reset(interval);
    atomic_store_explicit(&recording, true, memory_order_release);
    if (jvmti_events_enable(JVMTI_EVENT_MONITOR_CONTENDED_ENTER, true, "lock", err, errlen) ||
        jvmti_events_enable(JVMTI_EVENT_MONITOR_CONTENDED_ENTERED, true, "lock", err, errlen)) {
        atomic_store(&recording, false);
        return -1;
    }
    char why[512];
    if (lock_park_start(why, sizeof(why))) log_warn("%s", why);
    return 0;
}

static void lock_stop(void) {
    char err[256];
    atomic_store(&recording, false);
    lock_park_stop();
    if (jvmti_events_enable(JVMTI_EVENT_MONITOR_CONTENDED_ENTER, false, "lock", err, sizeof(err)) ||
        jvmti_events_enable(JVMTI_EVENT_MONITOR_CONTENDED_ENTERED, false, "lock", err, sizeof(err)))
        log_warn("%s", err);
}

/* lock=DURATION; interval= also sets it when lock is the session's event (async-profiler's -e lock -i N). */
static uint64_t lock_option_interval(const prof_options *o, bool first) {
    return first && o->interval_ns && o->lock_ns == OPTIONS_DEFAULT_LOCK_NS ? o->interval_ns : o->lock_ns;
}

const engine engine_lock = {
    .name = "lock",
    .event = EVENT_LOCK,
    .units = ENGINE_UNITS_NS,
    .counts = ENGINE_LOCK_COUNTS,
    .option_interval = lock_option_interval,
    .default_interval = OPTIONS_DEFAULT_LOCK_NS,
    .delivery = ENGINE_DELIVERY_JVMTI_CALLBACK,
    .check = lock_check,
    .start = lock_start,
    .stop = lock_stop,
};
