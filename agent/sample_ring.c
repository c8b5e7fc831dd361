/* Runs in signal handlers: async-signal-safe code only (sample_ring_push). */
/*
 * sample_ring: each cell carries a sequence number (Vyukov's bounded queue). A producer claims position p
 * by CAS on the tail when its cell's sequence equals p, writes the record, then publishes it with
 * sequence p + 1; the consumer takes the cell at the head when its sequence is head + 1 and frees it for
 * the next lap with sequence head + capacity. Memory comes from mmap, never malloc.
 */
#include "sample_ring.h"

#include <stdatomic.h>
#include <sys/mman.h>

typedef struct {
    _Atomic uint64_t seq;
    sample_record rec;
} cell;

struct sample_ring {
    cell *cells;
    size_t mask;
    size_t bytes;
    _Atomic uint64_t tail;   /* next position to claim (producers) */
    uint64_t head;           /* next position to take (the consumer) */
};

sample_ring *sample_ring_create(size_t capacity) {
    size_t n = 16;
    while (n < capacity) n <<= 1;
    size_t bytes = sizeof(sample_ring) + n * sizeof(cell);
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
    sample_ring *r = p;
    r->cells = (cell *)(r + 1);
    r->mask = n - 1;
    r->bytes = bytes;
    atomic_init(&r->tail, 0);
    r->head = 0;
    for (size_t i = 0; i < n; i++) atomic_init(&r->cells[i].seq, i);
    return r;
}

void sample_ring_destroy(sample_ring *r) {
    if (r) munmap(r, r->bytes);
}

bool sample_ring_push(sample_ring *r, const sample_record *rec) {
    uint64_t pos = atomic_load_explicit(&r->tail, memory_order_relaxed);
    for (;;) {
        cell *c = &r->cells[pos & r->mask];
        uint64_t seq = atomic_load_explicit(&c->seq, memory_order_acquire);
        int64_t diff = (int64_t)(seq - pos);
        if (diff == 0) {
            if (atomic_compare_exchange_weak_explicit(&r->tail, &pos, pos + 1, memory_order_relaxed,
                                                      memory_order_relaxed)) {
                c->rec = *rec;
                atomic_store_explicit(&c->seq, pos + 1, memory_order_release);
                return true;
            }
            /* pos was reloaded by the failed CAS */
        } else if (diff < 0) {
            return false;   /* the consumer has not freed this cell yet: full */
        } else {
            pos = atomic_load_explicit(&r->tail, memory_order_relaxed);
        }
    }
}

size_t sample_ring_drain(sample_ring *r, sample_record *out, size_t max) {
    size_t n = 0;
    while (n < max) {
        cell *c = &r->cells[r->head & r->mask];
        uint64_t seq = atomic_load_explicit(&c->seq, memory_order_acquire);
        if (seq != r->head + 1) break;   /* empty, or still being written */
        out[n++] = c->rec;
        atomic_store_explicit(&c->seq, r->head + r->mask + 1, memory_order_release);
        r->head++;
    }
    return n;
}
