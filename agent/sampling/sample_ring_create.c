/*
 * sample_ring_create: the set-up half of sample_ring (signal/sample_ring.c): the ring's memory, from mmap,
 * never malloc. Outside signal handlers; called by the JFR writer when a recording starts and ends.
 */
#include "sample_ring.h"
#include "sample_ring_create.h"

#include <stdatomic.h>
#include <sys/mman.h>

sample_ring *sample_ring_create(size_t capacity) {
    size_t n = 16;
    while (n < capacity) n <<= 1;
    size_t bytes = sizeof(sample_ring) + n * sizeof(sample_ring_cell);
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
    sample_ring *r = p;
    r->cells = (sample_ring_cell *)(r + 1);
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

