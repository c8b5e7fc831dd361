/*
 * jfr_sample_event: CPU samples are jdk.ExecutionSample in STATE_DEFAULT; wall-clock samples are
 * profiler.WallClockSample in their thread's state, as async-profiler writes them. Why not jdk.ExecutionSample
 * for wall samples too: the JDK's `jfr view hot-methods`, JMC's method profiling page and Pyroscope's JFR
 * parser take every jdk.ExecutionSample for CPU time, whatever its state, and ranked a thread's futex wait as
 * the hottest method. nobatch (async-profiler's name for its same choice) writes them as jdk.ExecutionSample,
 * for tools that know no other event; both converters tell them from CPU samples by their state.
 */
#include "jfr_sample_event.h"

#include "event_clock.h"
#include "event_kind.h"
#include "jfr_event.h"
#include "thread_state.h"

bool jfr_sample_event_write(jfr_buf *b, const sample_record *rec, uint64_t thread_key, uint64_t trace_key,
                            bool wall_as_execution) {
    switch (rec->event) {
    case EVENT_CPU:
        jfr_event_execution_sample(b, rec->ticks, thread_key, trace_key, THREAD_STATE_DEFAULT);
        return true;
    case EVENT_WALL: {
        /* A wall sample always has a state: DEFAULT would make it a CPU sample to every reader. */
        int state = rec->state == THREAD_STATE_DEFAULT ? THREAD_STATE_RUNNABLE : rec->state;
        if (wall_as_execution) jfr_event_execution_sample(b, rec->ticks, thread_key, trace_key, state);
        else jfr_event_wall_clock_sample(b, rec->ticks, thread_key, trace_key, state);
        return true;
    }
    case EVENT_NATIVEMEM:
        /* A record without a stack is a free of a recorded allocation (native_hooks.c). */
        if (!rec->trace_id) jfr_event_free(b, rec->ticks, thread_key, rec->address);
        else jfr_event_malloc(b, rec->ticks, thread_key, trace_key, rec->address, rec->size);
        return true;
    case EVENT_NATIVELOCK:
        /* Queued when the wait ended; the weight is the time waited (ns; the event's are ticks). */
        {
            uint64_t waited = event_clock_ticks_of_ns(rec->weight);
            jfr_event_native_lock(b, rec->ticks > waited ? rec->ticks - waited : rec->ticks, waited, thread_key,
                                  trace_key, rec->address);
        }
        return true;
    case EVENT_TRACE:
        /* 'address' is when the call returned, 'size' how long it took in ns (the weight may stand for more
         * calls). */
        {
            uint64_t ended = rec->address ? rec->address : rec->ticks, took = event_clock_ticks_of_ns(rec->size);
            jfr_event_method_trace(b, ended > took ? ended - took : ended, took, thread_key, trace_key);
        }
        return true;
    default:
        return false;
    }
}
