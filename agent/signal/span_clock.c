/* [signal-safe] span_clock's handler half: find the thread's slot by a bounded probe and store the time. */
#include "span_clock.h"

span_clock_slot span_clock_slots[SPAN_CLOCK_SLOTS];

void span_clock_note(uint32_t tid, uint64_t ticks) {
    uint32_t h = span_clock_hash(tid);
    for (uint32_t i = 0; i < SPAN_CLOCK_PROBES; i++) {
        span_clock_slot *s = &span_clock_slots[(h + i) & (SPAN_CLOCK_SLOTS - 1)];
        uint32_t owner = atomic_load_explicit(&s->tid, memory_order_acquire);
        if (owner == tid) {
            atomic_store_explicit(&s->ticks, ticks, memory_order_relaxed);
            return;
        }
        if (owner == 0) return;   /* slots are claimed in probe order: the thread has none */
    }
}
