#include "jfr_event.h"

#include "jfr_types.h"

void jfr_event_execution_sample(jfr_buf *b, uint64_t ticks, uint64_t thread_key, uint64_t trace_key, int state) {
    size_t at = jfr_buf_event_begin(b, JFR_EXECUTION_SAMPLE);
    jfr_buf_put_varint(b, ticks);
    jfr_buf_put_varint(b, thread_key);
    jfr_buf_put_varint(b, trace_key);
    jfr_buf_put_varint(b, JFR_THREAD_STATE_KEY(state));
    jfr_buf_event_end(b, at);
}

void jfr_event_wall_clock_sample(jfr_buf *b, uint64_t ticks, uint64_t thread_key, uint64_t trace_key, int state) {
    size_t at = jfr_buf_event_begin(b, JFR_WALL_CLOCK_SAMPLE);
    jfr_buf_put_varint(b, ticks);
    jfr_buf_put_varint(b, thread_key);
    jfr_buf_put_varint(b, trace_key);
    jfr_buf_put_varint(b, JFR_THREAD_STATE_KEY(state));
    jfr_buf_put_varint(b, 1);   /* samples */
    jfr_buf_put_varint(b, 0);   /* timeSpan: one sample covers no span */
    jfr_buf_event_end(b, at);
}

void jfr_event_allocation_sample(jfr_buf *b, uint64_t ticks, uint64_t thread_key, uint64_t trace_key,
                                 uint64_t class_key, uint64_t size, uint64_t weight) {
    size_t at = jfr_buf_event_begin(b, JFR_ALLOC_IN_NEW_TLAB);
    jfr_buf_put_varint(b, ticks);
    jfr_buf_put_varint(b, thread_key);
    jfr_buf_put_varint(b, trace_key);
    jfr_buf_put_varint(b, class_key);
    jfr_buf_put_varint(b, size);
    jfr_buf_put_varint(b, weight);
    jfr_buf_event_end(b, at);
}

void jfr_event_live_object(jfr_buf *b, uint64_t ticks, uint64_t thread_key, uint64_t trace_key, uint64_t class_key,
                           uint64_t size) {
    size_t at = jfr_buf_event_begin(b, JFR_LIVE_OBJECT);
    jfr_buf_put_varint(b, ticks);
    jfr_buf_put_varint(b, thread_key);
    jfr_buf_put_varint(b, trace_key);
    jfr_buf_put_varint(b, class_key);
    jfr_buf_put_varint(b, size);
    jfr_buf_put_varint(b, ticks);
    jfr_buf_event_end(b, at);
}

/* A wait that ended at 'ticks': the JDK's events start when the wait began. */
static size_t begin_wait(jfr_buf *b, uint64_t type, uint64_t ticks, uint64_t waited, uint64_t thread_key,
                         uint64_t trace_key, uint64_t class_key) {
    size_t at = jfr_buf_event_begin(b, type);
    jfr_buf_put_varint(b, ticks > waited ? ticks - waited : 0);
    jfr_buf_put_varint(b, waited);
    jfr_buf_put_varint(b, thread_key);
    jfr_buf_put_varint(b, trace_key);
    jfr_buf_put_varint(b, class_key);
    return at;
}

void jfr_event_monitor_enter(jfr_buf *b, uint64_t ticks, uint64_t waited, uint64_t thread_key, uint64_t trace_key,
                             uint64_t class_key) {
    size_t at = begin_wait(b, JFR_JAVA_MONITOR_ENTER, ticks, waited, thread_key, trace_key, class_key);
    jfr_buf_put_varint(b, 0);   /* previousOwner: not known to JVMTI's event */
    jfr_buf_put_varint(b, 0);   /* address */
    jfr_buf_event_end(b, at);
}

void jfr_event_thread_park(jfr_buf *b, uint64_t ticks, uint64_t waited, uint64_t thread_key, uint64_t trace_key,
                           uint64_t class_key) {
    size_t at = begin_wait(b, JFR_THREAD_PARK, ticks, waited, thread_key, trace_key, class_key);
    /* timeout and until not known: Long.MIN_VALUE, which the JDK's tools show as N/A */
    jfr_buf_put_varint(b, 0x8000000000000000ULL);
    jfr_buf_put_varint(b, 0x8000000000000000ULL);
    jfr_buf_put_varint(b, 0);              /* address */
    jfr_buf_event_end(b, at);
}
/* Native memory and native locks: async-profiler's profiler.Malloc, profiler.Free, profiler.NativeLock. */
void jfr_event_malloc(jfr_buf *b, uint64_t ticks, uint64_t thread_key, uint64_t trace_key, uint64_t address,
                      uint64_t size) {
    size_t at = jfr_buf_event_begin(b, JFR_MALLOC);
    jfr_buf_put_varint(b, ticks);
    jfr_buf_put_varint(b, thread_key);
    jfr_buf_put_varint(b, trace_key);
    jfr_buf_put_varint(b, address);
    jfr_buf_put_varint(b, size);
    jfr_buf_event_end(b, at);
}

void jfr_event_free(jfr_buf *b, uint64_t ticks, uint64_t thread_key, uint64_t address) {
    size_t at = jfr_buf_event_begin(b, JFR_FREE);
    jfr_buf_put_varint(b, ticks);
    jfr_buf_put_varint(b, thread_key);
    jfr_buf_put_varint(b, 0);   /* no stack: a free is matched by address */
    jfr_buf_put_varint(b, address);
    jfr_buf_event_end(b, at);
}

void jfr_event_native_lock(jfr_buf *b, uint64_t ticks, uint64_t duration, uint64_t thread_key, uint64_t trace_key,
                           uint64_t address) {
    size_t at = jfr_buf_event_begin(b, JFR_NATIVE_LOCK);
    jfr_buf_put_varint(b, ticks);
    jfr_buf_put_varint(b, duration);
    jfr_buf_put_varint(b, thread_key);
    jfr_buf_put_varint(b, trace_key);
    jfr_buf_put_varint(b, address);
    jfr_buf_event_end(b, at);
}

void jfr_event_method_trace(jfr_buf *b, uint64_t ticks, uint64_t duration, uint64_t thread_key, uint64_t trace_key) {
    size_t at = jfr_buf_event_begin(b, JFR_METHOD_TRACE);
    jfr_buf_put_varint(b, ticks);
    jfr_buf_put_varint(b, duration);
    jfr_buf_put_varint(b, thread_key);
    jfr_buf_put_varint(b, trace_key);
    jfr_buf_put_varint(b, 0);   /* method: null, as async-profiler writes it */
    jfr_buf_event_end(b, at);
}

/* startTime, duration, eventThread, stackTrace: the JDK's header of these events (no thread, no stack). */
static size_t begin_with_header(jfr_buf *b, uint64_t type, uint64_t ticks) {
    size_t at = jfr_buf_event_begin(b, type);
    jfr_buf_put_varint(b, ticks);
    jfr_buf_put_varint(b, 0);
    jfr_buf_put_varint(b, 0);
    jfr_buf_put_varint(b, 0);
    return at;
}

void jfr_event_active_recording(jfr_buf *b, uint64_t ticks, const jfr_recording_info *r) {
    size_t at = begin_with_header(b, JFR_ACTIVE_RECORDING, ticks);
    jfr_buf_put_varint(b, 1);   /* id */
    jfr_buf_put_string(b, r->name);
    jfr_buf_put_string(b, r->destination);
    jfr_buf_put_varint(b, 0);   /* maxAge: none */
    jfr_buf_put_varint(b, 0);   /* flushInterval: none */
    jfr_buf_put_varint(b, r->max_size);
    jfr_buf_put_varint(b, r->start_ms);
    jfr_buf_put_varint(b, r->duration_ms);
    jfr_buf_event_end(b, at);
}

void jfr_event_active_setting(jfr_buf *b, uint64_t ticks, uint64_t event_id, const char *name, const char *value) {
    size_t at = begin_with_header(b, JFR_ACTIVE_SETTING, ticks);
    jfr_buf_put_varint(b, event_id);
    jfr_buf_put_string(b, name);
    jfr_buf_put_string(b, value);
    jfr_buf_event_end(b, at);
}

void jfr_event_os_information(jfr_buf *b, uint64_t ticks, const char *os_version) {
    size_t at = jfr_buf_event_begin(b, JFR_OS_INFORMATION);
    jfr_buf_put_varint(b, ticks);
    jfr_buf_put_string(b, os_version);
    jfr_buf_event_end(b, at);
}

void jfr_event_jvm_information(jfr_buf *b, uint64_t ticks, const jfr_jvm_info *j) {
    size_t at = jfr_buf_event_begin(b, JFR_JVM_INFORMATION);
    jfr_buf_put_varint(b, ticks);
    jfr_buf_put_string(b, j->jvm_name);
    jfr_buf_put_string(b, j->jvm_version);
    jfr_buf_put_string(b, j->jvm_arguments);
    jfr_buf_put_string(b, NULL);   /* jvmFlags: settings file arguments, none */
    jfr_buf_put_string(b, j->java_arguments);
    jfr_buf_put_varint(b, j->jvm_start_ms);
    jfr_buf_put_varint(b, j->pid);
    jfr_buf_event_end(b, at);
}

void jfr_event_cpu_load(jfr_buf *b, uint64_t ticks, float jvm_user, float jvm_system, float machine_total) {
    size_t at = jfr_buf_event_begin(b, JFR_CPU_LOAD);
    jfr_buf_put_varint(b, ticks);
    jfr_buf_put_float(b, jvm_user);
    jfr_buf_put_float(b, jvm_system);
    jfr_buf_put_float(b, machine_total);
    jfr_buf_event_end(b, at);
}

void jfr_event_window(jfr_buf *b, uint64_t start_ticks, uint64_t end_ticks) {
    size_t at = jfr_buf_event_begin(b, JFR_WINDOW);
    jfr_buf_put_varint(b, start_ticks);
    jfr_buf_put_varint(b, end_ticks - start_ticks);
    jfr_buf_put_varint(b, 0);   /* no thread: a ttsp window is every thread's */
    jfr_buf_event_end(b, at);
}

void jfr_event_span(jfr_buf *b, uint64_t start_ticks, uint64_t duration, uint64_t thread_key, uint64_t tag_key) {
    size_t at = jfr_buf_event_begin(b, JFR_SPAN);
    jfr_buf_put_varint(b, start_ticks);
    jfr_buf_put_varint(b, duration);
    jfr_buf_put_varint(b, thread_key);
    jfr_buf_put_varint(b, tag_key);
    jfr_buf_event_end(b, at);
}
