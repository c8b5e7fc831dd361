/*
 * [signal-safe] traces_put: the insertion half of traces (traces.h), called by signal handlers. A slot is
 * claimed by CAS on its hash, then filled, then published with a release store of its state. A second
 * thread that meets a slot still being filled adds its count anyway: the stack is the same (same hash),
 * only the frames are not visible yet. The table is refused new stacks at 3/4 load so probe sequences
 * stay short in the handler.
 */
#include "traces_table.h"


static uint64_t mix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

static uint64_t stack_hash(const trace_frame *frames, uint32_t depth, const trace_key *key) {
    uint64_t h = mix(((uint64_t)key->tid << 32) | ((uint64_t)key->event << 24) | ((uint64_t)key->state << 16) | depth);
    for (uint32_t i = 0; i < depth; i++) {
        h = mix(h ^ frames[i].id);
        h = mix(h ^ ((uint64_t)(uint32_t)frames[i].bci << 8) ^ (uint64_t)frames[i].kind);
    }
    return h ? h : 1;
}

/* Returns the slot for hash h, claiming an empty one if needed (*claimed = 1), or NULL when full. */
static trace_slot *find_slot(trace_table *t, uint64_t h, int *claimed) {
    size_t i = h & t->mask;
    for (int probe = 0; probe < MAX_PROBES; probe++, i = (i + 1) & t->mask) {
        trace_slot *s = &t->slots[i];
        uint64_t cur = atomic_load_explicit(&s->hash, memory_order_acquire);
        if (cur == h) return s;
        if (cur != 0) continue;
        if (atomic_load_explicit(&t->slots_used, memory_order_relaxed) >= (t->mask + 1) / 4 * 3) return NULL;
        uint64_t expected = 0;
        if (atomic_compare_exchange_strong(&s->hash, &expected, h)) {
            atomic_fetch_add(&t->slots_used, 1);
            *claimed = 1;
            return s;
        }
        if (expected == h) return s;
    }
    return NULL;
}

traces_result traces_put(trace_table *t, const trace_frame *frames, uint32_t depth, uint32_t tid,
                         uint64_t weight) {
    trace_key key = {tid, 0, 0};
    return traces_put_id(t, frames, depth, &key, weight, NULL);
}

traces_result traces_put_id(trace_table *t, const trace_frame *frames, uint32_t depth, const trace_key *key,
                            uint64_t weight, uint32_t *id) {
    uint64_t h = stack_hash(frames, depth, key);
    int claimed = 0;
    trace_slot *s = find_slot(t, h, &claimed);
    if (!s) return TRACES_TABLE_FULL;
    if (claimed) {
        uint64_t words = 0;
        for (uint32_t i = 0; i < depth; i++) words += trace_pack_words(&frames[i]);
        uint64_t at = atomic_fetch_add(&t->words_used, words);
        if (at + words > t->word_capacity) {
            atomic_store_explicit(&s->state, SLOT_FAILED, memory_order_release);
            return TRACES_FRAMES_FULL;
        }
        uint64_t *out = &t->words[at];
        for (uint32_t i = 0; i < depth; i++) out += trace_pack(&frames[i], out);
        s->frames_at = (uint32_t)at;
        s->depth = depth;
        s->tid = key->tid;
        s->key_event = key->event;
        s->key_state = key->state;
        atomic_store_explicit(&s->state, SLOT_READY, memory_order_release);
    } else if (atomic_load_explicit(&s->state, memory_order_acquire) == SLOT_FAILED) {
        return TRACES_FRAMES_FULL;
    }
    atomic_fetch_add_explicit(&s->samples, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&s->weight, weight, memory_order_relaxed);
    if (id) *id = (uint32_t)(s - t->slots) + 1;
    return TRACES_STORED;
}


traces_result traces_add(trace_table *t, uint32_t id, uint64_t weight) {
    if (id == 0 || id - 1 > t->mask) return TRACES_TABLE_FULL;
    trace_slot *s = &t->slots[id - 1];
    if (atomic_load_explicit(&s->state, memory_order_acquire) != SLOT_READY) return TRACES_TABLE_FULL;
    atomic_fetch_add_explicit(&s->samples, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&s->weight, weight, memory_order_relaxed);
    return TRACES_STORED;
}

bool traces_subtract(trace_table *t, uint32_t id, uint64_t weight) {
    if (id == 0 || id - 1 > t->mask) return false;
    trace_slot *s = &t->slots[id - 1];
    /* Never below zero: a reset between the put and this call starts the slot over. */
    uint64_t samples = atomic_load_explicit(&s->samples, memory_order_relaxed);
    do {
        if (samples == 0) return false;
    } while (!atomic_compare_exchange_weak_explicit(&s->samples, &samples, samples - 1, memory_order_relaxed,
                                                    memory_order_relaxed));
    uint64_t w = atomic_load_explicit(&s->weight, memory_order_relaxed);
    do {
        if (w < weight) weight = w;
    } while (!atomic_compare_exchange_weak_explicit(&s->weight, &w, w - weight, memory_order_relaxed,
                                                    memory_order_relaxed));
    return true;
}
