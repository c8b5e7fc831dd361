#include "span_clock_claim.h"

#include <stddef.h>

_Atomic uint64_t *span_clock_claim(uint32_t tid) {
    uint32_t h = span_clock_hash(tid);
    for (uint32_t i = 0; i < SPAN_CLOCK_PROBES; i++) {
        span_clock_slot *s = &span_clock_slots[(h + i) & (SPAN_CLOCK_SLOTS - 1)];
        uint32_t owner = 0;
        if (atomic_load(&s->tid) == tid) return &s->ticks;
        if (atomic_compare_exchange_strong(&s->tid, &owner, tid)) return &s->ticks;
        if (owner == tid) return &s->ticks;
    }
    return NULL;
}
