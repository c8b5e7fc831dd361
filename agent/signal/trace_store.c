/*
 * [signal-safe] trace_store: the handlers' half of the trace storage (trace_store.h). A handler claims the
 * table in use by announcing itself in its user count and checking the index again: a swap that it has not
 * seen yet then waits for it. The record for the JFR writer is queued while the table is still claimed,
 * so that once a swap has waited, every record of the previous table is in the queue.
 */
#include "trace_store.h"

#include "event_clock.h"

trace_store_state trace_store;

static uint32_t enter_table(void) {
    for (;;) {
        uint32_t i = atomic_load(&trace_store.index);
        atomic_fetch_add(&trace_store.users[i], 1);
        if (atomic_load(&trace_store.index) == i) return i;
        atomic_fetch_sub(&trace_store.users[i], 1);
    }
}

/* The sample's record for the JFR writer: when (event_clock.h), who, which stack. */
static bool queue_record(const trace_key *key, uint64_t weight, uint32_t trace_id, const trace_store_native *native) {
    sample_record rec = {.ticks = event_clock_now(), .weight = weight,
                         .tid = key->tid, .trace_id = trace_id, .event = key->event, .state = key->state,
                         .address = native ? native->address : 0, .size = native ? native->size : 0};
    return sample_ring_push(trace_store.config.ring, &rec);
}

static trace_store_result result_of(traces_result r, bool queued) {
    if (!queued) return TRACE_STORE_RING_FULL;
    return r == TRACES_STORED ? TRACE_STORE_STORED : r == TRACES_TABLE_FULL ? TRACE_STORE_TABLE_FULL
                                                                            : TRACE_STORE_FRAMES_FULL;
}

trace_store_result trace_store_repeat(uint64_t ref, const trace_key *key, uint64_t weight) {
    uint32_t t = enter_table(), trace_id = (uint32_t)ref;
    bool valid = ref != TRACE_STORE_NO_REF && (uint32_t)(ref >> 32) == atomic_load(&trace_store.epoch) &&
                 ((trace_id & TRACE_STORE_TABLE_BIT) != 0) == (t != 0);
    traces_result r = valid ? traces_add(trace_store.tables[t], trace_id & ~TRACE_STORE_TABLE_BIT, weight)
                            : TRACES_TABLE_FULL;
    bool queued = r != TRACES_STORED || !trace_store.config.ring || queue_record(key, weight, trace_id, NULL);
    atomic_fetch_sub(&trace_store.users[t], 1);
    return valid && r == TRACES_STORED ? result_of(r, queued) : TRACE_STORE_STALE;
}

trace_store_result trace_store_put(const trace_frame *frames, uint32_t depth, const trace_key *key, uint64_t weight,
                                   uint64_t *ref) {
    return trace_store_put_native(frames, depth, key, weight, NULL, ref);
}

trace_store_result trace_store_put_native(const trace_frame *frames, uint32_t depth, const trace_key *key,
                                          uint64_t weight, const trace_store_native *native, uint64_t *ref) {
    uint32_t trace_id = 0, t = enter_table();
    trace_key stored = *key;
    if (!trace_store.config.per_thread) stored.tid = 0;
    traces_result r = traces_put_id(trace_store.tables[t], frames, depth, &stored, weight, &trace_id);
    trace_id |= t ? TRACE_STORE_TABLE_BIT : 0;
    bool queued = r != TRACES_STORED || !trace_store.config.ring || queue_record(key, weight, trace_id, native);
    if (ref)
        *ref = r == TRACES_STORED ? ((uint64_t)atomic_load(&trace_store.epoch) << 32) | trace_id : TRACE_STORE_NO_REF;
    atomic_fetch_sub(&trace_store.users[t], 1);
    return result_of(r, queued);
}

bool trace_store_queue_free(const trace_key *key, uint64_t address) {
    if (!trace_store.config.ring) return true;
    uint32_t t = enter_table();
    trace_store_native native = {address, 0};
    bool queued = queue_record(key, 0, 0, &native);
    atomic_fetch_sub(&trace_store.users[t], 1);
    return queued;
}

bool trace_store_subtract(uint64_t ref, uint64_t weight) {
    uint32_t t = enter_table(), trace_id = (uint32_t)ref;
    /* The stack's table is no longer the one in use (a JFR chunk swapped it, a session reset it). */
    bool valid = ref != TRACE_STORE_NO_REF && (uint32_t)(ref >> 32) == atomic_load(&trace_store.epoch) &&
                 ((trace_id & TRACE_STORE_TABLE_BIT) != 0) == (t != 0);
    bool done = valid && traces_subtract(trace_store.tables[t], trace_id & ~TRACE_STORE_TABLE_BIT, weight);
    atomic_fetch_sub(&trace_store.users[t], 1);
    return done;
}
