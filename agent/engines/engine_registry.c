/*
 * engine_registry: which engine records what. Choosing the CPU engine for event= (the best that passes its
 * check) and the one engine of each other event kind.
 */
#include "engine_registry.h"

#include "log.h"
#include "method_target.h"
#include "perf_events.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* target-cpu and record-cpu are what a perf event knows (the CPU it counts on, the CPU of each sample): the
 * option's name when one is given, else NULL. */
static const char *perf_only_option(const prof_options *o) {
    return o->target_cpu >= 0 ? "target-cpu" : o->record_cpu ? "record-cpu" : NULL;
}

static const engine *choose(const prof_options *o, bool verbose, char *err, size_t errlen);

const engine *engine_choose(const prof_options *o, bool verbose, char *err, size_t errlen) {
    const char *perf_option = perf_only_option(o);
    char why[256];
    if (perf_option && strcmp(o->event, "cpu") == 0) {
        /* No timer fallback: a timer neither counts on one CPU nor knows a sample's. */
        if (engine_perf.check(o, why, sizeof(why)) != 0) {
            snprintf(err, errlen, "event=cpu with %s: Perf events unavailable (%s is a perf event's option; no "
                     "timer engine can stand in): %s", perf_option, perf_option, why);
            return NULL;
        }
        if (verbose) log_info("event=cpu with %s: using the perf engine", perf_option);
        return &engine_perf;
    }
    const engine *e = choose(o, verbose, err, errlen);
    if (e && perf_option && e != &engine_perf && e != &engine_perf_count) {
        snprintf(err, errlen, "option '%s' needs a perf event (event=cpu, cpu-clock, page-faults...): the %s engine "
                 "of event=%s cannot %s", perf_option, e->name, o->event,
                 o->target_cpu >= 0 ? "count on one CPU only" : "tell on which CPU a sample was taken");
        return NULL;
    }
    return e;
}

static const engine *choose(const prof_options *o, bool verbose, char *err, size_t errlen) {
    const char *event = o->event;
    char why[256];
    if (strcmp(event, "cpu") == 0) {
        /* perf first: a true period (not bound to the kernel tick) and kernel frames. */
        const engine *cpu_order[] = {&engine_perf, &engine_ctimer, &engine_itimer};
        char refused[1024] = "";   /* why the better engines cannot run: one warning with the choice */
        size_t n = 0;
        for (size_t i = 0; i < sizeof(cpu_order) / sizeof(cpu_order[0]); i++) {
            if (cpu_order[i]->check(o, why, sizeof(why)) == 0) {
                if (verbose && n) log_warn("event=cpu: %susing the %s engine", refused, cpu_order[i]->name);
                else if (verbose) log_info("event=cpu: using the %s engine", cpu_order[i]->name);
                return cpu_order[i];
            }
            if (n < sizeof(refused))
                n += (size_t)snprintf(refused + n, sizeof(refused) - n, "%s engine unavailable: %s; ",
                                      cpu_order[i]->name, why);
        }
        snprintf(err, errlen, "event=cpu: no CPU engine can run here (last reason: %s)", why);
        return NULL;
    }
    if (method_target_is_target(event)) {
        if (engine_instrument.check(o, why, sizeof(why)) != 0) {
            snprintf(err, errlen, "%s", why);
            return NULL;
        }
        if (verbose) log_info("event=%s: using the instrument engine (bytecode instrumentation)", event);
        return &engine_instrument;
    }
    const engine *jvmti_engines[] = {&engine_alloc, &engine_lock};
    for (size_t i = 0; i < sizeof(jvmti_engines) / sizeof(jvmti_engines[0]); i++) {
        if (strcmp(event, jvmti_engines[i]->name) != 0) continue;
        if (jvmti_engines[i]->check(o, err, errlen) != 0) return NULL;
        if (verbose) log_info("event=%s: using the JVM's own %s events (JVMTI)", event, event);
        return jvmti_engines[i];
    }
    if (perf_events_is_native_function(event)) {
        if (engine_perf_count.check(o, why, sizeof(why)) != 0) {
            /* a function not found is a wrong name, anything else the kernel's refusal */
            snprintf(err, errlen, "event=%s: %s%s", event, strstr(why, "no such function") ? "" : "Perf events unavailable: ",
                     why);
            return NULL;
        }
        if (verbose) log_info("event=%s: using the perf engine, a breakpoint on the function", event);
        return &engine_perf_count;
    }
    const perf_event_kind *perf = perf_events_find(event);
    if (perf) {
        const engine *e = perf->time_based ? &engine_perf : &engine_perf_count;
        if (e->check(o, why, sizeof(why)) != 0) {
            snprintf(err, errlen, "event=%s: Perf events unavailable: %s", event, why);
            return NULL;
        }
        if (verbose) log_info("event=%s: using the %s engine", event, e->name);
        return e;
    }
    const engine *all[] = {&engine_ctimer, &engine_itimer, &engine_wall, &engine_nativemem, &engine_nativelock,
                           &engine_trace};
    for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
        if (strcmp(event, all[i]->name) != 0) continue;
        if (all[i]->check(o, why, sizeof(why)) != 0) {
            snprintf(err, errlen, "event=%s: engine unavailable: %s", event, why);
            return NULL;
        }
        if (verbose) log_info("event=%s: using the %s engine", event, all[i]->name);
        return all[i];
    }
    snprintf(err, errlen, "event=%s: unknown event; accepted: cpu, ctimer, itimer, alloc, lock, " PERF_EVENTS_TEXT, event);
    return NULL;
}

const engine *engine_for_event(event_kind event, const prof_options *o, char *err, size_t errlen) {
    /* One engine per kind recorded beside event= (cpu's engine is chosen by event= itself). */
    static const engine *const by_kind[EVENT_KIND_COUNT] = {
        [EVENT_WALL] = &engine_wall,           [EVENT_ALLOC] = &engine_alloc,          [EVENT_LOCK] = &engine_lock,
        [EVENT_NATIVEMEM] = &engine_nativemem, [EVENT_NATIVELOCK] = &engine_nativelock,
        [EVENT_TRACE] = &engine_trace};
    const engine *e = (unsigned)event < EVENT_KIND_COUNT ? by_kind[event] : NULL;
    char why[256];
    if (!e) {
        snprintf(err, errlen, "%s: not available beside event= in this build", event_kind_name(event));
        return NULL;
    }
    if (e->check(o, why, sizeof(why)) != 0) {
        snprintf(err, errlen, "%s: engine unavailable: %s", event_kind_name(event), why);
        return NULL;
    }
    return e;
}
