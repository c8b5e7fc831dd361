/*
 * [signal-safe] wall_signal: see wall_signal.h.
 */
#define _GNU_SOURCE
#include "wall_signal.h"

#include "clock_ns.h"
#include "thread_state.h"
#include "thread_state_read.h"

#include <time.h>

wall_shared wall;

static uint32_t slot_of(const siginfo_t *info) {
    return (uint32_t)((uintptr_t)info->si_value.sival_ptr & 0xffffffffu);
}

bool wall_signal_is_own(const siginfo_t *info) {
    uint32_t cookie = atomic_load_explicit(&wall.cookie, memory_order_relaxed);
    return info->si_code == SI_QUEUE && cookie && info->si_pid == wall.pid &&
           (uint32_t)((uintptr_t)info->si_value.sival_ptr >> 32) == cookie;
}

uint64_t wall_signal_weight(const siginfo_t *info, uint64_t interval_ns) {
    uint32_t i = slot_of(info);
    /* Wall time: the time since the thread's previous visit, which the timer set before sending. */
    uint64_t w = i < wall.capacity ? atomic_load_explicit(&wall.slots[i].weight_ns, memory_order_relaxed)
                                   : atomic_load_explicit(&wall.unslotted_weight_ns, memory_order_relaxed);
    return w ? w : interval_ns;
}

int wall_signal_thread_state(const siginfo_t *info, const void *ucontext, JNIEnv *env, const trace_frame *frames,
                             uint32_t depth) {
    (void)info;
    return thread_state_read(ucontext, env, frames, depth);
}

void wall_signal_stored(const siginfo_t *info, const trace_key *key, uint64_t ref) {
    uint32_t i = slot_of(info);
    if (i >= wall.capacity) return;
    wall_slot *s = &wall.slots[i];
    uint64_t cpu = clock_ns(CLOCK_THREAD_CPUTIME_ID);
    atomic_store_explicit(&s->state, key->state, memory_order_relaxed);
    atomic_store_explicit(&s->cpu_after_ns, cpu, memory_order_relaxed);
    atomic_store_explicit(&s->ref, ref, memory_order_relaxed);
    atomic_fetch_add_explicit(&s->answered, 1, memory_order_release);
}
