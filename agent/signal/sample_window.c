/*
 * sample_window: the windows' state and their ring. A window has an id (the begin call's sequence number,
 * or the safepoint's counter) and lives in slot id % WINDOW_SLOTS until the writer has emitted it; its start
 * and end are atomics, so handlers on several threads may widen a ttsp window at once.
 */
#include "sample_window.h"

#include "event_clock.h"

#include <stdatomic.h>

#define WINDOW_SLOTS 1024

typedef struct {
    _Atomic uint64_t id;      /* 0: free */
    _Atomic uint64_t start, end;
} window_slot;

static sample_window_config config;
static window_slot slots[WINDOW_SLOTS];
static _Atomic uint64_t calls_seq;     /* the last begin call's window id */
static _Atomic bool calls_open;
static _Atomic uint64_t emitted;       /* windows up to this id are out (the writer's to move) */

void sample_window_configure(const sample_window_config *c) {
    config = *c;
    for (int i = 0; i < WINDOW_SLOTS; i++) atomic_store(&slots[i].id, 0);
    atomic_store(&calls_seq, 0);
    atomic_store(&calls_open, false);
    atomic_store(&emitted, 0);
}

static window_slot *slot_of(uint64_t id) {
    window_slot *s = &slots[id % WINDOW_SLOTS];
    uint64_t held = atomic_load(&s->id);
    if (held == id) return s;
    /* A slot is reused only once the writer emitted what it held (else that window is lost, not mixed). */
    if (held != 0 && held > atomic_load(&emitted)) return NULL;
    if (!atomic_compare_exchange_strong(&s->id, &held, id)) return atomic_load(&s->id) == id ? s : NULL;
    atomic_store(&s->start, 0);
    atomic_store(&s->end, 0);
    return s;
}

static void widen(window_slot *s, uint64_t ticks) {
    uint64_t v = atomic_load(&s->start);
    while ((v == 0 || ticks < v) && !atomic_compare_exchange_weak(&s->start, &v, ticks)) {}
    v = atomic_load(&s->end);
    while (ticks > v && !atomic_compare_exchange_weak(&s->end, &v, ticks)) {}
}

bool sample_window_admits(void) {
    switch (config.mode) {
    case SAMPLE_WINDOW_CALLS:
        return config.nostop || atomic_load_explicit(&calls_open, memory_order_relaxed);
    case SAMPLE_WINDOW_SAFEPOINT: {
        bool syncing = *config.safepoint_state == SAMPLE_WINDOW_SYNCHRONIZING;
        if (syncing) {
            /* The counter is odd from the safepoint's begin to its end; +1 keeps id 0 free. */
            window_slot *s = slot_of((config.safepoint_id ? *config.safepoint_id : 0) + 1);
            if (s) widen(s, event_clock_now());
        }
        return syncing || config.nostop;
    }
    default:
        return true;
    }
}

void sample_window_begin(void) {
    if (config.mode != SAMPLE_WINDOW_CALLS || atomic_exchange(&calls_open, true)) return;
    window_slot *s = slot_of(atomic_fetch_add(&calls_seq, 1) + 1);
    if (s) atomic_store(&s->start, event_clock_now());
}

void sample_window_end(void) {
    if (config.mode != SAMPLE_WINDOW_CALLS || !atomic_exchange(&calls_open, false)) return;
    window_slot *s = slot_of(atomic_load(&calls_seq));
    if (s) atomic_store(&s->end, event_clock_now());
}

/* The id of the window that may still grow: the open call window, the safepoint being synchronised. */
static uint64_t current_id(void) {
    if (config.mode == SAMPLE_WINDOW_CALLS) return atomic_load(&calls_open) ? atomic_load(&calls_seq) : 0;
    if (config.mode == SAMPLE_WINDOW_SAFEPOINT && *config.safepoint_state == SAMPLE_WINDOW_SYNCHRONIZING)
        return (config.safepoint_id ? *config.safepoint_id : 0) + 1;
    return 0;
}

void sample_window_drain(bool all, void (*emit)(uint64_t start_ticks, uint64_t end_ticks, void *arg), void *arg) {
    if (config.mode == SAMPLE_WINDOW_NONE) return;
    uint64_t open = all ? 0 : current_id(), done = atomic_load(&emitted), highest = done;
    for (int i = 0; i < WINDOW_SLOTS; i++) {
        uint64_t id = atomic_load(&slots[i].id);
        if (id == 0 || id <= done || (open && id >= open)) continue;
        uint64_t start = atomic_load(&slots[i].start), end = atomic_load(&slots[i].end);
        if (start && end >= start) emit(start, end, arg);
        if (id > highest) highest = id;
    }
    atomic_store(&emitted, highest);
}
