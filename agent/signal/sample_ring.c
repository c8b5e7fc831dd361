/* [signal-safe] Runs in signal handlers (sample_ring_push) and on the JFR writer thread (sample_ring_drain);
 * sample_ring_create.c maps the cells. */
/*
 * sample_ring: each cell carries a sequence number (Vyukov's bounded queue). A producer claims position p
 * by CAS on the tail when its cell's sequence equals p, writes the record, then publishes it with
 * sequence p + 1; the consumer takes the cell at the head when its sequence is head + 1 and frees it for
 * the next lap with sequence head + capacity. Memory comes from mmap, never malloc.
 */
#include "sample_ring.h"

#include <stdatomic.h>

bool sample_ring_push(sample_ring *r, const sample_record *rec) {
    uint64_t pos = atomic_load_explicit(&r->tail, memory_order_relaxed);
    for (;;) {
        sample_ring_cell *c = &r->cells[pos & r->mask];
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
        sample_ring_cell *c = &r->cells[r->head & r->mask];
        uint64_t seq = atomic_load_explicit(&c->seq, memory_order_acquire);
        if (seq != r->head + 1) break;   /* empty, or still being written */
        out[n++] = c->rec;
        atomic_store_explicit(&c->seq, r->head + r->mask + 1, memory_order_release);
        r->head++;
    }
    return n;
}
