/*
 * engine_registry: the engine that records each event kind, and the choice of the CPU engine. Outside
 * signal handlers; used by the session and the entry points.
 */
#ifndef LIBPROF_ENGINE_REGISTRY_H
#define LIBPROF_ENGINE_REGISTRY_H

#include "engine.h"

/* Picks the engine for o->event (and o->alluser): 'cpu' takes the best one that passes its check (perf,
 * ctimer, itimer); a perf event name takes perf or nothing; a method target
 * (pkg.Class.method) the instrumentation engine. With 'verbose', logs the choice and why the
 * better ones could not run. Returns NULL with the reason in err when none can run. */
const engine *engine_choose(const prof_options *o, bool verbose, char *err, size_t errlen);

/* The engine that records 'event' beside the session's first (event=cpu,wall: wall), checked with the
 * options; NULL with the reason in err when it cannot run or the kind has no engine yet. */
const engine *engine_for_event(event_kind event, const prof_options *o, char *err, size_t errlen);

#endif
