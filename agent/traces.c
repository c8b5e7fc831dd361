/* Runs in signal handlers: async-signal-safe code only. */
/*
 * traces: a slot is claimed by CAS on its hash, then filled, then published with a release store of its
 * state. A second thread that meets a slot still being filled adds its count anyway: the stack is the same
 * (same hash), only the frames are not visible yet. The table is refused new stacks at 3/4 load so probe
 * sequences stay short in the handler.
 */
#include "traces.h"

#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>

enum { SLOT_FILLING = 0, SLOT_READY = 1, SLOT_FAILED = 2 };
#define MAX_PROBES 64

typedef struct {
    _Atomic uint64_t hash;      /* 0 = empty */
    _Atomic uint32_t state;
    uint32_t depth;
    uint32_t tid;
    uint32_t pad;
    uint64_t frames_at;
    _Atomic uint64_t samples;
    _Atomic uint64_t weight;
} trace_slot;

struct trace_table {
    trace_slot *slots;
    size_t mask;
    size_t slots_bytes;
    trace_frame *frames;
    size_t frame_capacity;
    _Atomic uint64_t frames_used;
    _Atomic uint64_t slots_used;
};

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

static uint64_t mix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

static uint64_t stack_hash(const trace_frame *frames, uint32_t depth, uint32_t tid) {
    uint64_t h = mix(((uint64_t)tid << 32) | depth);
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
    return traces_put_id(t, frames, depth, tid, weight, NULL);
}

traces_result traces_put_id(trace_table *t, const trace_frame *frames, uint32_t depth, uint32_t tid,
                            uint64_t weight, uint32_t *id) {
    uint64_t h = stack_hash(frames, depth, tid);
    int claimed = 0;
    trace_slot *s = find_slot(t, h, &claimed);
    if (!s) return TRACES_TABLE_FULL;
    if (claimed) {
        uint64_t at = atomic_fetch_add(&t->frames_used, depth);
        if (at + depth > t->frame_capacity) {
            atomic_store_explicit(&s->state, SLOT_FAILED, memory_order_release);
            return TRACES_FRAMES_FULL;
        }
        memcpy(&t->frames[at], frames, depth * sizeof(trace_frame));
        s->frames_at = at;
        s->depth = depth;
        s->tid = tid;
        atomic_store_explicit(&s->state, SLOT_READY, memory_order_release);
    } else if (atomic_load_explicit(&s->state, memory_order_acquire) == SLOT_FAILED) {
        return TRACES_FRAMES_FULL;
    }
    atomic_fetch_add_explicit(&s->samples, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&s->weight, weight, memory_order_relaxed);
    if (id) *id = (uint32_t)(s - t->slots) + 1;
    return TRACES_STORED;
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

void traces_for_each(trace_table *t, traces_visitor visit, void *arg) {
    for (size_t i = 0; i <= t->mask; i++) {
        trace_slot *s = &t->slots[i];
        if (atomic_load_explicit(&s->hash, memory_order_acquire) == 0) continue;
        if (atomic_load_explicit(&s->state, memory_order_acquire) != SLOT_READY) continue;
        uint64_t samples = atomic_load_explicit(&s->samples, memory_order_relaxed);
        if (samples == 0) continue;
        visit(&t->frames[s->frames_at], s->depth, s->tid, samples,
              atomic_load_explicit(&s->weight, memory_order_relaxed), arg);
    }
}

size_t traces_distinct(const trace_table *t) {
    return (size_t)atomic_load(&((trace_table *)t)->slots_used);
}

uint64_t traces_orphaned_samples(trace_table *t) {
    uint64_t lost = 0;
    for (size_t i = 0; i <= t->mask; i++) {
        trace_slot *s = &t->slots[i];
        if (atomic_load(&s->hash) != 0 && atomic_load(&s->state) == SLOT_FAILED) lost += atomic_load(&s->samples);
    }
    return lost;
}
