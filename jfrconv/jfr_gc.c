/*
 * jfr_gc: jdk.GarbageCollection events as profile spans (jfr_gc.h). The event's fields are found by name in
 * the chunk's own metadata (startTime, duration, name, cause), as jfr_sample does for the sampling events.
 */
#include "jfr_gc.h"

#include "jfr_meta.h"
#include "jfr_value.h"

#include <stdio.h>
#include <stdlib.h>

/* A duration in ticks as nanoseconds. */
static uint64_t duration_ns(const jfr_rchunk *ch, uint64_t ticks) {
    uint64_t tps = ch->header.ticks_per_second;
    if (!tps || tps == 1000000000ULL) return ticks;
    return (uint64_t)((unsigned __int128)ticks * 1000000000U / tps);
}

int jfr_gc_spans(jfr_rchunk *ch, profile *p, uint64_t from_ns, uint64_t to_ns) {
    uint32_t t = jfr_meta_find_name(&ch->meta, "jdk.GarbageCollection");
    if (t == JFR_NO_TYPE) return 0;
    const jfr_type *type = &ch->meta.types[t];
    int start_f = jfr_meta_field(&ch->meta, t, "startTime"), duration_f = jfr_meta_field(&ch->meta, t, "duration");
    int name_f = jfr_meta_field(&ch->meta, t, "name"), cause_f = jfr_meta_field(&ch->meta, t, "cause");
    if (start_f < 0 || duration_f < 0 || type->field_count == 0) return 0;
    size_t *at = malloc(type->field_count * sizeof(size_t));
    if (!at) return -1;
    int added = 0;
    size_t pos = 0;
    jfr_revent ev;
    int rc;
    while ((rc = jfr_rchunk_next(ch, &pos, &ev)) == 1) {
        if (ev.type != t) continue;
        /* The event's own bytes bound its fields, as for the sampling events. */
        jfr_rchunk bounded = *ch;
        bounded.end = ev.end;
        if (jfr_value_fields(&bounded, ev.payload, t, at, type->field_count)) {
            rc = -1;
            break;
        }
        ch->budget = bounded.budget;
        uint64_t start = jfr_rchunk_ticks_to_ns(ch, jfr_value_number(ch, at[start_f], &type->fields[start_f]));
        uint64_t end = start + duration_ns(ch, jfr_value_number(ch, at[duration_f], &type->fields[duration_f]));
        if (end < from_ns || start > to_ns) continue;
        char collector[128] = "", cause[128] = "", label[300];
        if (name_f >= 0) jfr_value_text(ch, at[name_f], &type->fields[name_f], collector, sizeof(collector));
        if (cause_f >= 0) jfr_value_text(ch, at[cause_f], &type->fields[cause_f], cause, sizeof(cause));
        if (cause[0]) snprintf(label, sizeof(label), "GC: %s (%s)", collector[0] ? collector : "?", cause);
        else snprintf(label, sizeof(label), "GC: %s", collector[0] ? collector : "?");
        if (profile_add_span(p, label, start, end)) {
            rc = -1;
            break;
        }
        added++;
    }
    free(at);
    return rc < 0 || ch->error->failed ? -1 : added;
}
