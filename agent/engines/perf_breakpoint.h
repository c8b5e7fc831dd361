/*
 * perf_breakpoint: a native function as the perf engine's event (event=Class::method, perf_events.h): where its
 * first instruction is, from the symbol tables of the objects loaded now. Outside signal handlers.
 */
#ifndef LIBPROF_PERF_BREAKPOINT_H
#define LIBPROF_PERF_BREAKPOINT_H

#include <stddef.h>
#include <stdint.h>

/* The run-time address of 'function' (its first overload in address order): 0, or -1 with the reason. */
int perf_breakpoint_find(const char *function, uintptr_t *addr, char *err, size_t errlen);

#endif
