/*
 * traces: creating, resetting and reading trace tables, outside signal handlers. The insertion that
 * handlers make, and how a slot is claimed and published, is signal/traces_put.c.
 */
#include "traces.h"
#include "traces_table.h"

#include <stdatomic.h>
#include <sys/mman.h>

static void *reserve(size_t bytes) {
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

trace_table *traces_create(size_t slots, size_t frame_capacity) {
    size_t n = 16;
    while (n < slots) n <<= 1;
    trace_table *t = reserve(sizeof(trace_table));
    if (!t) return NULL;
    t->mask = n - 1;
    t->slots_bytes = n * sizeof(trace_slot);
    t->slots = reserve(t->slots_bytes);
    t->frame_capacity = frame_capacity;
    t->frames = reserve(frame_capacity * sizeof(trace_frame));
    if (!t->slots || !t->frames) {
        traces_destroy(t);
        return NULL;
    }
    return t;
}

void traces_destroy(trace_table *t) {
    if (!t) return;
    if (t->slots) munmap(t->slots, t->slots_bytes);
    if (t->frames) munmap(t->frames, t->frame_capacity * sizeof(trace_frame));
    munmap(t, sizeof(*t));
}

void traces_reset(trace_table *t) {
    /* Give the pages back rather than memset: a reset table costs no memory until it fills again. */
    madvise(t->slots, t->slots_bytes, MADV_DONTNEED);
    madvise(t->frames, t->frame_capacity * sizeof(trace_frame), MADV_DONTNEED);
    atomic_store(&t->frames_used, 0);
    atomic_store(&t->slots_used, 0);
}

bool traces_get(trace_table *t, uint32_t id, const trace_frame **frames, uint32_t *depth) {
    if (id == 0 || id - 1 > t->mask) return false;
    trace_slot *s = &t->slots[id - 1];
    if (atomic_load_explicit(&s->hash, memory_order_acquire) == 0) return false;
    if (atomic_load_explicit(&s->state, memory_order_acquire) != SLOT_READY) return false;
    *frames = &t->frames[s->frames_at];
    *depth = s->depth;
    return true;
}

bool traces_get_key(trace_table *t, uint32_t id, trace_key *key) {
    const trace_frame *frames;
    uint32_t depth;
    if (!traces_get(t, id, &frames, &depth)) return false;
    const trace_slot *s = &t->slots[id - 1];
    *key = (trace_key){s->tid, s->key_event, s->key_state};
    return true;
}

void traces_for_each(trace_table *t, traces_visitor visit, void *arg) {
    for (size_t i = 0; i <= t->mask; i++) {
        trace_slot *s = &t->slots[i];
        if (atomic_load_explicit(&s->hash, memory_order_acquire) == 0) continue;
        if (atomic_load_explicit(&s->state, memory_order_acquire) != SLOT_READY) continue;
        uint64_t samples = atomic_load_explicit(&s->samples, memory_order_relaxed);
        if (samples == 0) continue;
        trace_key key = {s->tid, s->key_event, s->key_state};
        visit(&t->frames[s->frames_at], s->depth, &key, samples,
              atomic_load_explicit(&s->weight, memory_order_relaxed), arg);
    }
}

size_t traces_distinct(const trace_table *t) {
    return (size_t)atomic_load(&((trace_table *)t)->slots_used);
}

int traces_fill_percent(const trace_table *t) {
    trace_table *m = (trace_table *)t;
    uint64_t slots = atomic_load(&m->slots_used) * 100 / ((t->mask + 1) / 4 * 3);
    uint64_t frames = atomic_load(&m->frames_used) * 100 / (t->frame_capacity ? t->frame_capacity : 1);
    uint64_t fill = slots > frames ? slots : frames;
    return fill > 100 ? 100 : (int)fill;
}

uint64_t traces_orphaned_samples(trace_table *t) {
    uint64_t lost = 0;
    for (size_t i = 0; i <= t->mask; i++) {
        trace_slot *s = &t->slots[i];
        if (atomic_load(&s->hash) != 0 && atomic_load(&s->state) == SLOT_FAILED) lost += atomic_load(&s->samples);
    }
    return lost;
}
