/*
 * jfr_event: the events the JFR writer records, each appended to a buffer with its fields in the order
 * jfr_metadata declares them. Pure; used by the JFR writer (out_jfr) and its unit tests.
 */
#ifndef LIBPROF_JFR_EVENT_H
#define LIBPROF_JFR_EVENT_H

#include "jfr_buf.h"

#include <stdint.h>

/* One CPU or wall-clock sample: thread and stack are constant-pool keys; state a thread_state
 * (THREAD_STATE_DEFAULT for CPU samples). */
void jfr_event_execution_sample(jfr_buf *b, uint64_t ticks, uint64_t thread_key, uint64_t trace_key, int state);

/* One wall-clock sample as async-profiler writes it (profiler.WallClockSample, samples = 1): the thread's
 * state a thread_state. */
void jfr_event_wall_clock_sample(jfr_buf *b, uint64_t ticks, uint64_t thread_key, uint64_t trace_key, int state);

/* An allocation sample, as async-profiler writes it (jdk.ObjectAllocationInNewTLAB): the object's size and the
 * weight in bytes (the estimate of all allocation it stands for) as its TLAB size. */
void jfr_event_allocation_sample(jfr_buf *b, uint64_t ticks, uint64_t thread_key, uint64_t trace_key,
                                 uint64_t class_key, uint64_t size, uint64_t weight);
/* A contended monitor entered (park: a thread unparked) after waiting 'waited' ticks until 'ticks'. */
void jfr_event_monitor_enter(jfr_buf *b, uint64_t ticks, uint64_t waited, uint64_t thread_key, uint64_t trace_key,
                             uint64_t class_key);
void jfr_event_thread_park(jfr_buf *b, uint64_t ticks, uint64_t waited, uint64_t thread_key, uint64_t trace_key,
                           uint64_t class_key);
/* Native memory and locks: profiler.Malloc (address, bytes), profiler.Free (address; no stack: key 0),
 * profiler.NativeLock (time waited in ticks, the lock's address). */
void jfr_event_malloc(jfr_buf *b, uint64_t ticks, uint64_t thread_key, uint64_t trace_key, uint64_t address,
                      uint64_t size);
void jfr_event_free(jfr_buf *b, uint64_t ticks, uint64_t thread_key, uint64_t address);
/* jdk.MethodTrace: a traced call that started at 'ticks' and took 'duration' ns. */
void jfr_event_method_trace(jfr_buf *b, uint64_t ticks, uint64_t duration, uint64_t thread_key, uint64_t trace_key);
void jfr_event_native_lock(jfr_buf *b, uint64_t ticks, uint64_t duration, uint64_t thread_key, uint64_t trace_key,
                           uint64_t address);
/* alloc,live: a sampled object still reachable at the recording's end, allocated at 'ticks' (its start time
 * and its allocationTime, as async-profiler writes them), of 'size' bytes. */
void jfr_event_live_object(jfr_buf *b, uint64_t ticks, uint64_t thread_key, uint64_t trace_key, uint64_t class_key,
                           uint64_t size);
/* profiler.Span: a span the application recorded on a thread, its tag a String pool key (0: no tag). */
void jfr_event_span(jfr_buf *b, uint64_t start_ticks, uint64_t duration, uint64_t thread_key, uint64_t tag_key);

typedef struct {
    const char *name;          /* "libprof" */
    const char *destination;   /* the file the recording goes to, or NULL */
    uint64_t max_size;         /* bytes; the chunk size stands for it */
    uint64_t start_ms;         /* wall clock at the recording's start, ms since the epoch */
    uint64_t duration_ms;      /* so far */
} jfr_recording_info;

void jfr_event_active_recording(jfr_buf *b, uint64_t ticks, const jfr_recording_info *r);
/* A setting of event type 'event_id' (e.g. JFR_EXECUTION_SAMPLE): name and value as text. */
void jfr_event_active_setting(jfr_buf *b, uint64_t ticks, uint64_t event_id, const char *name, const char *value);
void jfr_event_os_information(jfr_buf *b, uint64_t ticks, const char *os_version);

typedef struct {
    const char *jvm_name, *jvm_version, *jvm_arguments, *java_arguments;   /* any may be NULL */
    uint64_t jvm_start_ms;
    uint64_t pid;
} jfr_jvm_info;

void jfr_event_jvm_information(jfr_buf *b, uint64_t ticks, const jfr_jvm_info *j);
/* Fractions from 0 to 1 of the machine's whole CPU capacity. */
void jfr_event_cpu_load(jfr_buf *b, uint64_t ticks, float jvm_user, float jvm_system, float machine_total);

/* profiler.Window: a sampling window of begin=/end= or ttsp (sample_window.h). */
void jfr_event_window(jfr_buf *b, uint64_t start_ticks, uint64_t end_ticks);

#endif
