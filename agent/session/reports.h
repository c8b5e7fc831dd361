/*
 * reports: what the session tells about itself, from facts the profiler hands over (session_facts): the
 * header of every profile (engine, units, counts, losses by reason, the walking mode, warnings), the log
 * line of the samples not taken correctly, the `status` text and the `metrics` page. Under the session's
 * lock; reads the sample counters but no session state of its own.
 */
#ifndef LIBPROF_REPORTS_H
#define LIBPROF_REPORTS_H

#include "engine.h"
#include "options.h"
#include "profile.h"
#include "sample.h"
#include "traces.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The running (or last) session as the reports need it. */
typedef struct {
    bool running;
    bool has_run;                       /* a session has started: its table exists */
    const prof_options *session;        /* its options, interval resolved */
    const engine *first;                /* its event= engine; NULL before the first session */
    const engine *engines[SAMPLE_MAX_ENGINES];   /* every engine of the session, first included */
    uint64_t intervals[SAMPLE_MAX_ENGINES];
    int engine_count;
    uint64_t elapsed_ns;                /* time profiled */
    uint64_t started_unix_ns;           /* when the session (or loop period) began, wall clock */
    trace_table *table;                 /* where its stacks are now */
    prof_cstack cstack;                 /* the walking mode it really uses */
    bool loop_shown;                    /* a loop= session: its period is told */
    unsigned long loop_period;
    bool loop_waiting;                  /* the period could not start and waits for its next turn */
} session_facts;

/* The samples a dump writes when they are not the session's live ones: a loop period swapped out while
 * sampling goes on, with its own counters and time. */
typedef struct {
    trace_table *table;
    sample_counters counters;
    uint64_t duration_ns;
    uint64_t started_unix_ns;
} dump_source;

/* The session's engine recording 'event' and its interval (may be NULL), or NULL. */
const engine *reports_engine_of_event(const session_facts *f, event_kind event, uint64_t *interval);

/* The profile header of 'event' of the session, or of 'from' when not NULL. */
void reports_fill_meta(profile *p, event_kind event, const session_facts *f, const dump_source *from);

/* Every sample not taken correctly is reported in the log as well as in the outputs. */
void reports_log_losses(const profile *p);

int reports_status(const session_facts *f, const prof_options *o, char *err, size_t errlen);

/* The `metrics` action: the counters of the session in Prometheus' text format, for 'event'. */
int reports_metrics(const session_facts *f, event_kind event, const prof_options *o, char *err, size_t errlen);

#endif
