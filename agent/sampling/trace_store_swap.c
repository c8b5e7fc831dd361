/*
 * trace_store_swap: the half of the trace storage (signal/trace_store.h) that runs outside signal
 * handlers: the profiler configures it when a session starts, the JFR writer swaps the two tables between
 * chunks, readers ask which table is in use.
 */
#include "trace_store.h"
#include "trace_store_swap.h"

#include <time.h>

void trace_store_configure(const trace_store_config *c) {
    trace_store.config = *c;
    trace_store.tables[0] = c->table;
    trace_store.tables[1] = c->spare;
    atomic_store(&trace_store.index, 0);
    atomic_fetch_add(&trace_store.epoch, 1);
}

trace_table *trace_store_current(void) {
    return trace_store.tables[atomic_load(&trace_store.index)];
}

int trace_store_swap(int timeout_ms) {
    uint32_t old = atomic_load(&trace_store.index), now = old ^ 1;
    atomic_store(&trace_store.index, now);
    atomic_fetch_add(&trace_store.epoch, 1);
    for (int waited = 0; atomic_load(&trace_store.users[old]) > 0; waited++) {
        if (waited >= timeout_ms * 10) return -1;
        struct timespec wait = {0, 100000};
        nanosleep(&wait, NULL);
    }
    return (int)now;
}
