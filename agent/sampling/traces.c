/*
 * traces: creating, resetting, reading and measuring trace tables, outside signal handlers. The insertion
 * that handlers make, and how a record is taken and published, is signal/traces_put.c; the layout is
 * signal/traces_table.h. Readers go through the records in creation order.
 */
#include "traces.h"
#include "traces_table.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <sys/mman.h>

_Static_assert(sizeof(trace_record) == 40, "the records are part of the agent's memory at 100K stacks");

static void *reserve(size_t bytes) {
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

static size_t records_bytes(const trace_table *t) {
    return (size_t)t->record_capacity * sizeof(trace_record);
}

trace_table *traces_create(size_t slots, size_t frame_capacity) {
    if (frame_capacity > UINT32_MAX) return NULL;   /* a record keeps its frames' place in 32 bits */
    size_t n = 16;
    while (n < slots) n <<= 1;
    if (n / 4 * 3 > UINT32_MAX) return NULL;        /* ids are 32 bits */
    trace_table *t = reserve(sizeof(trace_table));
    if (!t) return NULL;
    t->mask = n - 1;
    t->cache_mask = (n < TRACES_CACHE_WORDS ? n : TRACES_CACHE_WORDS) - 1;
    t->near_mask = (n < TRACES_NEAR_WORDS ? n : TRACES_NEAR_WORDS) - 1;
    t->record_capacity = (uint32_t)(n / 4 * 3);
    t->records = reserve(records_bytes(t));
    t->lookup_words = t->cache_mask + 1 + t->near_mask + 1 + n;
    t->lookup = reserve(t->lookup_words * sizeof(uint64_t));
    if (t->lookup) {
        t->cache = t->lookup;
        t->near = t->cache + t->cache_mask + 1;
        t->far = t->near + t->near_mask + 1;
    }
    t->word_capacity = frame_capacity;
    t->words = reserve(frame_capacity * sizeof(uint64_t));
    if (!t->records || !t->lookup || !t->words) {
        traces_destroy(t);
        return NULL;
    }
    return t;
}

void traces_destroy(trace_table *t) {
    if (!t) return;
    if (t->records) munmap(t->records, records_bytes(t));
    if (t->lookup) munmap(t->lookup, t->lookup_words * sizeof(uint64_t));
    if (t->words) munmap(t->words, t->word_capacity * sizeof(uint64_t));
    munmap(t, sizeof(*t));
}

void traces_reset(trace_table *t) {
    /* Give the pages back rather than memset: a reset table costs no memory until it fills again. */
    madvise(t->records, records_bytes(t), MADV_DONTNEED);
    madvise(t->lookup, t->lookup_words * sizeof(uint64_t), MADV_DONTNEED);
    madvise(t->words, t->word_capacity * sizeof(uint64_t), MADV_DONTNEED);
    atomic_store(&t->words_used, 0);
    atomic_store(&t->abandoned, 0);
    atomic_store(&t->records_used, 0);
}

void traces_buffer_free(traces_buffer *buf) {
    free(buf->frames);
    *buf = (traces_buffer){0};
}

/* Decodes the record's frames into buf; false when buf cannot grow to hold them. */
static bool unpack_record(const trace_table *t, const trace_record *s, traces_buffer *buf) {
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

/* The record under 'id' when it holds a complete stack. */
static const trace_record *ready_record(const trace_table *t, uint32_t id) {
    if (id == 0 || id > traces_records_taken(t)) return NULL;
    trace_record *s = &t->records[id - 1];
    return atomic_load_explicit(&s->state, memory_order_acquire) == SLOT_READY ? s : NULL;
}

bool traces_get(trace_table *t, uint32_t id, traces_buffer *buf, const trace_frame **frames, uint32_t *depth) {
    const trace_record *s = ready_record(t, id);
    if (!s || !unpack_record(t, s, buf)) return false;
    *frames = buf->frames;
    *depth = s->depth;
    return true;
}

bool traces_get_key(trace_table *t, uint32_t id, trace_key *key) {
    const trace_record *s = ready_record(t, id);
    if (!s) return false;
    *key = (trace_key){s->tid, s->key_event, s->key_state};
    return true;
}

int traces_for_each(trace_table *t, traces_visitor visit, void *arg) {
    traces_buffer buf = {0};
    for (uint32_t i = 0, n = traces_records_taken(t); i < n; i++) {
        trace_record *s = &t->records[i];
        if (atomic_load_explicit(&s->state, memory_order_acquire) != SLOT_READY) continue;
        uint64_t samples = atomic_load_explicit(&s->samples, memory_order_relaxed);
        if (samples == 0) continue;
        trace_key key = {s->tid, s->key_event, s->key_state};
        if (!unpack_record(t, s, &buf)) {
            traces_buffer_free(&buf);
            return -1;
        }
        visit(buf.frames, s->depth, &key, samples, atomic_load_explicit(&s->weight, memory_order_relaxed), arg);
    }
    traces_buffer_free(&buf);
    return 0;
}

size_t traces_distinct(const trace_table *t) {
    uint64_t abandoned = atomic_load(&((trace_table *)t)->abandoned), taken = traces_records_taken(t);
    return taken > abandoned ? (size_t)(taken - abandoned) : 0;
}

int traces_fill_percent(const trace_table *t) {
    trace_table *m = (trace_table *)t;
    uint64_t records = (uint64_t)traces_records_taken(t) * 100 / t->record_capacity;
    uint64_t frames = atomic_load(&m->words_used) * 100 / (t->word_capacity ? t->word_capacity : 1);
    uint64_t fill = records > frames ? records : frames;
    return fill > 100 ? 100 : (int)fill;
}

void traces_memory(const trace_table *t, uint64_t *reserved, uint64_t *used) {
    *reserved = (uint64_t)t->record_capacity * sizeof(trace_record) + t->lookup_words * sizeof(uint64_t) +
                t->word_capacity * sizeof(uint64_t);
    *used = (uint64_t)traces_records_taken(t) * sizeof(trace_record) +
            atomic_load(&((trace_table *)t)->words_used) * sizeof(uint64_t);
}

uint64_t traces_orphaned_samples(trace_table *t) {
    uint64_t lost = 0;
    for (uint32_t i = 0, n = traces_records_taken(t); i < n; i++) {
        trace_record *s = &t->records[i];
        if (atomic_load(&s->state) == SLOT_FAILED) lost += atomic_load(&s->samples);
    }
    return lost;
}
