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

/* The fallback where a hardware breakpoint is refused (debug registers taken or not offered): a uprobe, a
 * software breakpoint the kernel writes into the function's page. The uprobe PMU's perf type
 * (/sys/bus/event_source/devices/uprobe/type), or -1 when the kernel has none. */
int perf_breakpoint_uprobe_type(void);

/* The file mapped at run-time address 'addr' and addr's offset in it (/proc/self/maps): 0, or -1. */
int perf_breakpoint_file_offset(uintptr_t addr, char *path, size_t len, uint64_t *offset);

#endif
