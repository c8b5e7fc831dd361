/*
 * jfr_sample_event: CPU and wall-clock samples are both jdk.ExecutionSample, told apart by their thread
 * state (STATE_DEFAULT for CPU, the thread's state for wall). Why jdk.ExecutionSample for wall samples:
 * - the JDK's `jfr print --events ExecutionSample`, `jfr summary`, `jfr view` and JMC know it, so a wall
 *   profile shows in the JDK's own tools; a type of our own would be listed but shown nowhere else;
 * - async-profiler writes its wall samples the same way with --nobatch (its default batches them into a
 *   profiler.WallClockSample with a count, which the JDK's tools do not show), and its converter's
 *   --cpu / --wall select jdk.ExecutionSample by state: STATE_DEFAULT is cpu, anything else wall. Our
 *   recordings therefore convert with its jfrconv and with ours alike.
 */
#include "jfr_sample_event.h"

#include "event_clock.h"
#include "event_kind.h"
#include "jfr_event.h"
#include "thread_state.h"

bool jfr_sample_event_write(jfr_buf *b, const sample_record *rec, uint64_t thread_key, uint64_t trace_key) {
    switch (rec->event) {
    case EVENT_CPU:
        jfr_event_execution_sample(b, rec->ticks, thread_key, trace_key, THREAD_STATE_DEFAULT);
        return true;
    case EVENT_WALL:
        /* A wall sample always has a state: DEFAULT would make it a CPU sample to every reader. */
        jfr_event_execution_sample(b, rec->ticks, thread_key, trace_key,
                                   rec->state == THREAD_STATE_DEFAULT ? THREAD_STATE_RUNNABLE : rec->state);
        return true;
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
        /* Queued when the call returned; 'size' is how long it took (the weight may stand for more calls). */
        jfr_event_method_trace(b, rec->ticks > rec->size ? rec->ticks - rec->size : rec->ticks, rec->size, thread_key,
                               trace_key);
        return true;
    default:
        return false;
    }
}
