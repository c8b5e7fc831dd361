/*
 * event_kind: the kinds of event one profiling session can record at once (async-profiler's spellings:
 * event=cpu,wall / --wall 20ms beside -e cpu; alloc, lock, nativemem, nativelock likewise). Every stored
 * sample carries its kind (trace_key), so stacks of different kinds never merge; a JFR recording holds
 * every kind, a text, collapsed or HTML output one (the session's first, or the one chosen), jfrconv
 * selects one with its --cpu, --wall, ... flags. See docs/dev/engines.md, "Several events in one session".
 *
 * The enum is read in signal handlers (a byte in the trace key); the name table (event_kind.c) outside.
 */
#ifndef LIBPROF_EVENT_KIND_H
#define LIBPROF_EVENT_KIND_H

#include <stdbool.h>

typedef enum {
    EVENT_CPU = 0,      /* the execution event: cpu, ctimer, itimer, a perf event, an instrumented method */
    EVENT_WALL,         /* every thread at a fixed wall-clock interval, with its thread state */
    EVENT_ALLOC,        /* sampled Java allocations (JVMTI SampledObjectAlloc) */
    EVENT_LOCK,         /* contended Java monitors and parks on locks */
    EVENT_NATIVEMEM,    /* malloc and friends, through import hooks */
    EVENT_NATIVELOCK,   /* contended pthread locks, through import hooks */
    EVENT_TRACE,        /* calls of traced methods slower than their threshold (trace=), weight: ns taken */
    EVENT_KIND_COUNT
} event_kind;

/* What allocation and lock samples count, said in every output (the agent's and jfrconv's). */
#define ENGINE_ALLOC_COUNTS "allocation samples; weight: bytes allocated (estimated from the sampled objects)"
#define ENGINE_LIVE_COUNTS "live object samples; weight: bytes allocated by objects still reachable"
#define ENGINE_LOCK_COUNTS "contended lock waits; weight: ns waited"

/* "cpu", "wall", "alloc", "lock", "nativemem", "nativelock", "trace"; "?" out of range. The agent's option of the
 * same name turns the kind on beside event= (wall[=INTERVAL]); jfrconv's selecting flag is "--" + name. */
const char *event_kind_name(event_kind k);
/* The kind named 'name' (exactly), or -1. */
int event_kind_find(const char *name);

#endif
