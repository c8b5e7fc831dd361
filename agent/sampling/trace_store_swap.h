/*
 * trace_store_swap: the set-up half of trace_store.h: configuring the two tables, looking the current one
 * up and swapping them (trace_store_swap.c). Outside signal handlers: the profiler configures, the JFR
 * writer swaps.
 */
#ifndef LIBPROF_TRACE_STORE_SWAP_H
#define LIBPROF_TRACE_STORE_SWAP_H

#include "trace_store.h"

/* Outside signal handlers (trace_store_swap.c). Configure while no handler can store. */
void trace_store_configure(const trace_store_config *c);
/* The table handlers store into now; NULL before the first configuration. */
trace_table *trace_store_current(void);
/* Makes the other table the one handlers store into and waits (bounded) until no handler still uses the
 * previous one, which may then be read and reset. Returns the new table's index (0: 'table', 1: 'spare'),
 * or -1 when a handler still held the previous table after timeout_ms (the swap is made, but the previous
 * table must not be reset). */
int trace_store_swap(int timeout_ms);

#endif
