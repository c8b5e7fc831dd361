/*
 * perf_events: the perf events that `event=` accepts by name, and how to ask the kernel for each. Pure
 * data, shared by the option parser (to validate a name) and the perf engine (to open it). The software
 * events exist wherever perf_event_open does; the hardware ones (cycles, cache-misses...) only where the
 * CPU's counters are exposed, which virtual machines and containers rarely do: the engine then refuses the
 * session, saying so ("Perf events unavailable").
 */
#ifndef LIBPROF_PERF_EVENTS_H
#define LIBPROF_PERF_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    const char *name;      /* perf's spelling, e.g. "cpu-clock" */
    uint32_t type;         /* perf_event_attr.type */
    uint64_t config;       /* perf_event_attr.config */
    bool time_based;       /* the period is nanoseconds of CPU time; else a count of events */
    uint64_t default_period; /* without interval=: async-profiler's where it has the event (a sample every
                                page fault, every second context switch), 0 for the time-based ones */
} perf_event_kind;

/* The names below, for messages. */
#define PERF_EVENTS_TEXT \
    "cpu-clock, task-clock, page-faults, minor-faults, major-faults, context-switches, cpu-migrations, "      \
    "cycles, instructions, cache-references, cache-misses, branch-instructions, branch-misses, bus-cycles, " \
    "ref-cycles, L1-dcache-load-misses, LLC-load-misses, dTLB-load-misses"

/* The event called 'name' (aliases: faults, cs, migrations), or NULL. */
const perf_event_kind *perf_events_find(const char *name);

/* A native function as the event (async-profiler's event=G1CollectedHeap::humongous_obj_allocate): every call
 * sampled, through a hardware breakpoint on its first instruction. Spelled as C++ names its functions, at least
 * one "::" between identifiers (templates, operators and overloads by signature are not): true when 'name' is
 * one. */
bool perf_events_is_native_function(const char *name);

/* The start of the Itanium-ABI mangled name of such a function (_ZN15G1CollectedHeap22humongous_obj_allocateE),
 * which every overload's symbol begins with; -1 when it does not fit in 'out'. */
int perf_events_mangled_prefix(const char *name, char *out, size_t len);

/* The i-th event of the list above (for `jprof list`), or NULL past its end. */
const perf_event_kind *perf_events_at(int i);

#endif
