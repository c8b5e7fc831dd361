/*
 * [signal-safe] trace_store: the handlers' half of the trace storage (trace_store.h). A handler claims the
 * table in use by announcing itself in its user count and checking the index again: a swap that it has not
 * seen yet then waits for it. The record for the JFR writer is queued while the table is still claimed,
 * so that once a swap has waited, every record of the previous table is in the queue.
 */
#include "trace_store.h"

#include <time.h>

trace_store_state trace_store;

static uint32_t enter_table(void) {
    for (;;) {
        uint32_t i = atomic_load(&trace_store.index);
        atomic_fetch_add(&trace_store.users[i], 1);
        if (atomic_load(&trace_store.index) == i) return i;
        atomic_fetch_sub(&trace_store.users[i], 1);
    }
}

/* The sample's record for the JFR writer: when (the event clock is CLOCK_MONOTONIC), who, which stack. */
static bool queue_record(uint32_t tid, uint32_t trace_id, const trace_store_event *event) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    sample_record rec = {(uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec, tid, trace_id, 0, 0, 0};
    if (event) {
        rec.kind = event->kind;
        rec.address = event->address;
        rec.value = event->value;
    }
    return sample_ring_push(trace_store.config.ring, &rec);
}

bool trace_store_queue_event(uint32_t tid, const trace_store_event *event) {
    if (!trace_store.config.ring) return true;
    uint32_t t = enter_table();
    bool queued = queue_record(tid, 0, event);
    atomic_fetch_sub(&trace_store.users[t], 1);
    return queued;
}

trace_store_result trace_store_put(const trace_frame *frames, uint32_t depth, uint32_t tid, uint64_t weight) {
    return trace_store_put_id(frames, depth, tid, weight, NULL, NULL);
}

trace_store_result trace_store_put_id(const trace_frame *frames, uint32_t depth, uint32_t tid, uint64_t weight,
                                      const trace_store_event *event, uint32_t *stored_id) {
    uint32_t trace_id = 0, t = enter_table();
    traces_result r = traces_put_id(trace_store.tables[t], frames, depth, trace_store.config.per_thread ? tid : 0,
                                    weight, &trace_id);
    bool queued = r != TRACES_STORED || !trace_store.config.ring ||
                  queue_record(tid, trace_id | (t ? TRACE_STORE_TABLE_BIT : 0), event);
    atomic_fetch_sub(&trace_store.users[t], 1);
    if (stored_id) *stored_id = r == TRACES_STORED ? trace_id | (t ? TRACE_STORE_TABLE_BIT : 0) : 0;
    if (!queued) return TRACE_STORE_RING_FULL;
    return r == TRACES_STORED ? TRACE_STORE_STORED : r == TRACES_TABLE_FULL ? TRACE_STORE_TABLE_FULL
                                                                            : TRACE_STORE_FRAMES_FULL;
}

bool trace_store_subtract(uint32_t stored_id, uint64_t weight) {
    if (!stored_id) return false;
    uint32_t t = enter_table();
    /* The stack's table is no longer the one in use (a JFR chunk swapped it): it was written already. */
    bool same = ((stored_id & TRACE_STORE_TABLE_BIT) != 0) == (t != 0);
    bool done = same && traces_subtract(trace_store.tables[t], stored_id & ~TRACE_STORE_TABLE_BIT, weight);
    atomic_fetch_sub(&trace_store.users[t], 1);
    return done;
}
