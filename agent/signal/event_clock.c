/* event_clock: the one state of the event clock (event_clock.h). */
#include "event_clock.h"

event_clock_state event_clock = {false, 0, 1000000000ULL};

void event_clock_set(bool tsc, uint64_t jvm_ticks, uint64_t frequency) {
    if (!tsc || !EVENT_CLOCK_HAS_TSC || frequency == 0) {
        uint64_t now = clock_mono_ns();
        event_clock = (event_clock_state){false, jvm_ticks && jvm_ticks < now ? now - jvm_ticks : 0, 1000000000ULL};
        return;
    }
    event_clock = (event_clock_state){true, event_clock_rdtsc() - jvm_ticks, frequency};
}
