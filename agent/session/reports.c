#define _GNU_SOURCE
#include "reports.h"

#include "event_kind.h"
#include "frame.h"
#include "log.h"
#include "native_hooks_install.h"
#include "out_metrics.h"
#include "output.h"
#include "sample_cost.h"
#include "sample_setup.h"
#include "signal_watch.h"
#include "walk_vm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const engine *reports_engine_of_event(const session_facts *f, event_kind event, uint64_t *interval) {
    for (int i = 0; i < f->engine_count; i++) {
        if (f->engines[i]->event == event) {
            if (interval) *interval = f->intervals[i];
            return f->engines[i];
        }
    }
    return NULL;
}

void reports_fill_meta(profile *p, event_kind event, const session_facts *f, const dump_source *from) {
    uint64_t interval = f->session->interval_ns;
    const engine *e = reports_engine_of_event(f, event, &interval);
    if (!e) e = f->first;
    sample_counters c;
    if (from) c = from->counters;
    else sample_get_counters(&c);
    profile_meta *m = &p->meta;
    snprintf(m->engine, sizeof(m->engine), "%s", e ? e->name : "none");
    snprintf(m->event, sizeof(m->event), "%s", e && e != f->first ? event_kind_name(event)
                                                                                      : f->session->event);
    snprintf(m->title, sizeof(m->title), "%s", f->session->title);
    snprintf(m->units, sizeof(m->units), "%s", engine_units_name(e ? e->units : ENGINE_UNITS_NS));
    snprintf(m->counts, sizeof(m->counts), "%s",
             !e || !e->counts ? "" : e->live_counts && f->session->live ? e->live_counts : e->counts);
    m->interval_ns = interval;
    m->duration_ns = from ? from->duration_ns : f->elapsed_ns;
    m->start_unix_ns = from ? from->started_unix_ns : f->started_unix_ns;
    m->total = f->session->total;
    m->signals = c.signals;
    for (int r = 0; r < DROP_REASON_COUNT; r++) profile_add_drop(p, sample_drop_reason_name((drop_reason)r), c.dropped[r]);
    trace_table *stacks = from ? from->table : f->table;   /* none before the first start */
    profile_add_drop(p, "frames_lost", stacks ? traces_orphaned_samples(stacks) : 0);
    for (int k = 0; k < MARKER_COUNT; k++) {
        if (frame_marker_is_failure(k)) profile_add_failure(p, frame_marker_name(k), c.markers[k]);
    }
    for (int r = 1; r < VMWALK_REASON_COUNT; r++)
        profile_add_stitched(p, walk_vm_failure_name((vmwalk_failure)r), c.vm_fallbacks[r]);
    m->self_named = c.vm_self_named;
    m->stats = (f->session->features & PROF_FEATURE_STATS) != 0;
    snprintf(m->cstack, sizeof(m->cstack), "%s", options_cstack_name(f->cstack));
    signal_watch_note(m->warning, sizeof(m->warning));
    sample_cost_summarize(m->cost);
}

void reports_log_losses(const profile *p) {
    char line[1024];
    size_t n = 0;
    const profile_meta *m = &p->meta;
    for (int i = 0; i < m->drop_count && n < sizeof(line); i++)
        n += (size_t)snprintf(line + n, sizeof(line) - n, " dropped:%s=%llu", m->drops[i].name,
                              (unsigned long long)m->drops[i].count);
    for (int i = 0; i < m->failure_count && n < sizeof(line); i++)
        n += (size_t)snprintf(line + n, sizeof(line) - n, " failed:%s=%llu", m->failures[i].name,
                              (unsigned long long)m->failures[i].count);
    for (int i = 0; i < m->stitched_count && n < sizeof(line); i++)
        n += (size_t)snprintf(line + n, sizeof(line) - n, " stitched:%s=%llu", m->stitched[i].name,
                              (unsigned long long)m->stitched[i].count);
    /* Context only: samples the walker named itself are no loss, and without a loss there is nothing to say. */
    if (n && m->self_named && n < sizeof(line))
        n += (size_t)snprintf(line + n, sizeof(line) - n, " (walker_named=%llu)", (unsigned long long)m->self_named);
    if (n) log_info("samples not taken correctly:%s", line);
}

int reports_status(const session_facts *f, const prof_options *o, char *err, size_t errlen) {
    char text[2048];
    sample_counters c;
    sample_get_counters(&c);
    uint64_t dropped = 0;
    for (int r = 0; r < DROP_REASON_COUNT; r++) dropped += c.dropped[r];
    const engine *e = f->first;
    snprintf(text, sizeof(text),
             "state: %s\nengine: %s\nevent: %s\ninterval_ns: %llu\nelapsed_s: %.3f\nsamples: %llu\n"
             "dropped: %llu\nforeign_signals: %llu\ndistinct_stacks: %zu\n",
             f->running ? "running" : "idle", e ? e->name : "none", e ? f->session->event : "none",
             (unsigned long long)f->session->interval_ns,
             f->elapsed_ns / 1e9, (unsigned long long)c.stored, (unsigned long long)dropped, (unsigned long long)c.foreign,
             f->has_run ? traces_distinct(f->table) : 0);
    size_t n = strlen(text);
    for (int i = 1; i < f->engine_count && n < sizeof(text); i++) {
        const engine *extra = f->engines[i];
        n += (size_t)snprintf(text + n, sizeof(text) - n, "also: %s (engine %s, interval_ns %llu)\n",
                              event_kind_name(extra->event), extra->name, (unsigned long long)f->intervals[i]);
    }
    if (f->loop_shown && n < sizeof(text))
        n += (size_t)snprintf(text + n, sizeof(text) - n, "loop_period: %lu%s\n", f->loop_period,
                              f->loop_waiting ? " (waiting: it could not start; tried again when it would have ended)" : "");
    sample_cost_summary cost[SAMPLE_COST_DEPTH_BUCKETS];
    sample_cost_summarize(cost);
    n += (size_t)snprintf(text + n, sizeof(text) - n, "cstack: %s\n", options_cstack_name(f->cstack));
    for (int r = 1; r < VMWALK_REASON_COUNT && f->cstack == CSTACK_VM && n < sizeof(text); r++)
        n += (size_t)snprintf(text + n, sizeof(text) - n, "stitched_%s: %llu\n",
                              walk_vm_failure_name((vmwalk_failure)r), (unsigned long long)c.vm_fallbacks[r]);
    if (f->cstack == CSTACK_VM && n < sizeof(text))
        n += (size_t)snprintf(text + n, sizeof(text) - n, "walker_named: %llu\n", (unsigned long long)c.vm_self_named);
    if (n < sizeof(text))   /* import slots holding a nativemem/nativelock hook: none once a session stopped */
        n += (size_t)snprintf(text + n, sizeof(text) - n, "native_hook_slots: %zu\n", native_hooks_count_installed());
    char warning[512];
    signal_watch_note(warning, sizeof(warning));
    if (warning[0] && n < sizeof(text)) n += (size_t)snprintf(text + n, sizeof(text) - n, "warning: %s\n", warning);
    for (int d = 0; d < SAMPLE_COST_DEPTH_BUCKETS && n < sizeof(text); d++) {
        if (cost[d].count)
            n += (size_t)snprintf(text + n, sizeof(text) - n,
                                  "cost_depth_%s: samples=%llu median_ns=%llu p99_ns=%llu\n", cost[d].depths,
                                  (unsigned long long)cost[d].count, (unsigned long long)cost[d].median_ns,
                                  (unsigned long long)cost[d].p99_ns);
    }
    return output_write_text(o, text, err, errlen);
}

int reports_metrics(const session_facts *f, event_kind event, const prof_options *o, char *err, size_t errlen) {
    profile meta;
    profile_init(&meta);
    reports_fill_meta(&meta, event, f, NULL);
    sample_counters c;
    sample_get_counters(&c);
    /* Every reason, zeros too: a monitoring system rates a counter only once it has seen it. */
    profile_meta *m = &meta.meta;
    m->drop_count = m->failure_count = m->stitched_count = 0;
    for (int r = 0; r < DROP_REASON_COUNT && m->drop_count < PROFILE_MAX_COUNTS; r++)
        m->drops[m->drop_count++] = (profile_count){sample_drop_reason_name((drop_reason)r), c.dropped[r]};
    if (f->has_run && m->drop_count < PROFILE_MAX_COUNTS)
        m->drops[m->drop_count++] = (profile_count){"frames_lost", traces_orphaned_samples(f->table)};
    for (int k = 0; k < MARKER_COUNT && m->failure_count < PROFILE_MAX_COUNTS; k++)
        if (frame_marker_is_failure(k)) m->failures[m->failure_count++] = (profile_count){frame_marker_name(k), c.markers[k]};
    for (int r = 1; r < VMWALK_REASON_COUNT && m->stitched_count < PROFILE_MAX_COUNTS; r++)
        m->stitched[m->stitched_count++] = (profile_count){walk_vm_failure_name((vmwalk_failure)r), c.vm_fallbacks[r]};
    out_metrics_extra x = {f->running, c.stored, c.foreign, f->has_run ? traces_distinct(f->table) : 0, 0, 0};
    if (f->has_run) traces_memory(f->table, &x.storage_reserved_bytes, &x.storage_used_bytes);
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    int rc = !mem ? -1 : o->metrics_format == METRICS_ASPROF ? out_metrics_write_asprof(&meta.meta, &x, mem)
                                                              : out_metrics_write(&meta.meta, &x, mem);
    if (mem && fclose(mem)) rc = -1;
    profile_free(&meta);
    if (rc) snprintf(err, errlen, "out of memory while writing the metrics");
    else rc = output_write_text(o, text, err, errlen);
    free(text);
    return rc;
}
