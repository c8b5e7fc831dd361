/*
 * traces: creating, resetting and reading trace tables, outside signal handlers. The insertion that
 * handlers make, and how a slot is claimed and published, is signal/traces_put.c.
 */
#include "traces.h"
#include "traces_table.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <sys/mman.h>

_Static_assert(sizeof(trace_slot) == 40, "the slot index's size is part of the agent's memory at 100K stacks");

static void *reserve(size_t bytes) {
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

trace_table *traces_create(size_t slots, size_t frame_capacity) {
    if (frame_capacity > UINT32_MAX) return NULL;   /* a slot keeps its frames' place in 32 bits */
    size_t n = 16;
    while (n < slots) n <<= 1;
    trace_table *t = reserve(sizeof(trace_table));
    if (!t) return NULL;
    t->mask = n - 1;
    t->slots_bytes = n * sizeof(trace_slot);
    t->slots = reserve(t->slots_bytes);
    t->word_capacity = frame_capacity;
    t->words = reserve(frame_capacity * sizeof(uint64_t));
    if (!t->slots || !t->words) {
        traces_destroy(t);
        return NULL;
    }
    return t;
}

void traces_destroy(trace_table *t) {
    if (!t) return;
    if (t->slots) munmap(t->slots, t->slots_bytes);
    if (t->words) munmap(t->words, t->word_capacity * sizeof(uint64_t));
    munmap(t, sizeof(*t));
}

void traces_reset(trace_table *t) {
    /* Give the pages back rather than memset: a reset table costs no memory until it fills again. */
    madvise(t->slots, t->slots_bytes, MADV_DONTNEED);
    madvise(t->words, t->word_capacity * sizeof(uint64_t), MADV_DONTNEED);
    atomic_store(&t->words_used, 0);
    atomic_store(&t->slots_used, 0);
}

void traces_buffer_free(traces_buffer *buf) {
    free(buf->frames);
    *buf = (traces_buffer){0};
}

/* Decodes the slot's frames into buf; false when buf cannot grow to hold them. */
static bool unpack_slot(const trace_table *t, const trace_slot *s, traces_buffer *buf) {
    if (s->depth > buf->capacity) {
        trace_frame *grown = realloc(buf->frames, (size_t)s->depth * sizeof(trace_frame));
        if (!grown) return false;
        buf->frames = grown;
        buf->capacity = s->depth;
    }
    const uint64_t *in = &t->words[s->frames_at];
    for (uint32_t i = 0; i < s->depth; i++) in += trace_unpack(in, &buf->frames[i]);
    return true;
}

/* The slot under 'id' when it holds a complete stack. */
static const trace_slot *ready_slot(const trace_table *t, uint32_t id) {
    if (id == 0 || id - 1 > t->mask) return NULL;
    trace_slot *s = &t->slots[id - 1];
    if (atomic_load_explicit(&s->hash, memory_order_acquire) == 0) return NULL;
    if (atomic_load_explicit(&s->state, memory_order_acquire) != SLOT_READY) return NULL;
    return s;
}

bool traces_get(trace_table *t, uint32_t id, traces_buffer *buf, const trace_frame **frames, uint32_t *depth) {
    const trace_slot *s = ready_slot(t, id);
    if (!s || !unpack_slot(t, s, buf)) return false;
    *frames = buf->frames;
    *depth = s->depth;
    return true;
}

bool traces_get_key(trace_table *t, uint32_t id, trace_key *key) {
    const trace_slot *s = ready_slot(t, id);
    if (!s) return false;
    *key = (trace_key){s->tid, s->key_event, s->key_state};
    return true;
}

int traces_for_each(trace_table *t, traces_visitor visit, void *arg) {
    traces_buffer buf = {0};
    for (size_t i = 0; i <= t->mask; i++) {
        trace_slot *s = &t->slots[i];
        if (atomic_load_explicit(&s->hash, memory_order_acquire) == 0) continue;
        if (atomic_load_explicit(&s->state, memory_order_acquire) != SLOT_READY) continue;
        uint64_t samples = atomic_load_explicit(&s->samples, memory_order_relaxed);
        if (samples == 0) continue;
        trace_key key = {s->tid, s->key_event, s->key_state};
        if (!unpack_slot(t, s, &buf)) {
            traces_buffer_free(&buf);
            return -1;
        }
        visit(buf.frames, s->depth, &key, samples, atomic_load_explicit(&s->weight, memory_order_relaxed), arg);
    }
    traces_buffer_free(&buf);
    return 0;
}

size_t traces_distinct(const trace_table *t) {
    return (size_t)atomic_load(&((trace_table *)t)->slots_used);
}

int traces_fill_percent(const trace_table *t) {
    trace_table *m = (trace_table *)t;
    uint64_t slots = atomic_load(&m->slots_used) * 100 / ((t->mask + 1) / 4 * 3);
    uint64_t frames = atomic_load(&m->words_used) * 100 / (t->word_capacity ? t->word_capacity : 1);
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
