/*
 * jfr_span: profiler.Span events as thread spans (jfr_span.h). Fields found by name in the chunk's own
 * metadata (startTime, duration, eventThread, tag), as jfr_gc does for collections.
 */
#include "jfr_span.h"

#include "jfr_meta.h"
#include "jfr_value.h"

#include <stdlib.h>

static uint64_t duration_ns(const jfr_rchunk *ch, uint64_t ticks) {
    uint64_t tps = ch->header.ticks_per_second;
    if (!tps || tps == 1000000000ULL) return ticks;
    return (uint64_t)((unsigned __int128)ticks * 1000000000U / tps);
}

/* The OS thread id of the thread field at 'at' (0 when unknown). */
static uint32_t thread_tid(jfr_rchunk *ch, size_t at, const jfr_field *f) {
    size_t thread = jfr_value_deref(ch, at, f);
    int tid_f = jfr_meta_field(&ch->meta, f->type, "osThreadId");
    if (!thread || tid_f < 0) return 0;
    size_t fields[16];
    uint32_t n = (uint32_t)tid_f + 1;
    if (n > 16 || jfr_value_fields(ch, thread, f->type, fields, n)) return 0;
    return (uint32_t)jfr_value_number(ch, fields[tid_f], &ch->meta.types[f->type].fields[tid_f]);
}

int jfr_span_read(jfr_rchunk *ch, profile *p, uint64_t from_ns, uint64_t to_ns) {
    uint32_t t = jfr_meta_find_name(&ch->meta, "profiler.Span");
    if (t == JFR_NO_TYPE) return 0;
    const jfr_type *type = &ch->meta.types[t];
    int start_f = jfr_meta_field(&ch->meta, t, "startTime"), duration_f = jfr_meta_field(&ch->meta, t, "duration");
    int thread_f = jfr_meta_field(&ch->meta, t, "eventThread"), tag_f = jfr_meta_field(&ch->meta, t, "tag");
    if (start_f < 0 || duration_f < 0 || thread_f < 0 || type->field_count == 0) return 0;
    size_t *at = malloc(type->field_count * sizeof(size_t));
    if (!at) return -1;
    int added = 0, rc;
    size_t pos = 0;
    jfr_revent ev;
    while ((rc = jfr_rchunk_next(ch, &pos, &ev)) == 1) {
        if (ev.type != t) continue;
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
        uint32_t tid = thread_tid(ch, at[thread_f], &type->fields[thread_f]);
        char tag[512] = "";
        if (tag_f >= 0 && jfr_value_text(ch, at[tag_f], &type->fields[tag_f], tag, sizeof(tag))) {
            rc = -1;
            break;
        }
        if (tid && profile_add_thread_span(p, tag, start, end, tid)) {
            rc = -1;
            break;
        }
        added += tid != 0;
    }
    free(at);
    return rc < 0 || ch->error->failed ? -1 : added;
}

static const profile *sorting;

static int by_thread_start(const void *a, const void *b) {
    const profile_span *x = &sorting->spans[*(const size_t *)a], *y = &sorting->spans[*(const size_t *)b];
    if (x->tid != y->tid) return x->tid < y->tid ? -1 : 1;
    return x->start_ns < y->start_ns ? -1 : x->start_ns > y->start_ns;
}

int jfr_span_index_build(jfr_span_index *ix, const profile *p, size_t first) {
    ix->count = 0;
    ix->order = malloc((p->span_count > first ? p->span_count - first : 1) * sizeof(size_t));
    if (!ix->order) return -1;
    for (size_t i = first; i < p->span_count; i++)
        if (p->spans[i].tid) ix->order[ix->count++] = i;
    sorting = p;
    qsort(ix->order, ix->count, sizeof(size_t), by_thread_start);
    return 0;
}

void jfr_span_index_free(jfr_span_index *ix) {
    free(ix->order);
    ix->order = NULL;
    ix->count = 0;
}

/* How far back from the last span started before a sample to look for one still open: spans nest rarely
 * deeper, and a sample that finds none is simply not in a span. */
#define NESTING_LOOKBACK 64

uint32_t jfr_span_find(const jfr_span_index *ix, const profile *p, uint32_t tid, uint64_t time_ns) {
    size_t lo = 0, hi = ix->count;   /* first span after (tid, time_ns) */
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        const profile_span *s = &p->spans[ix->order[mid]];
        if (s->tid < tid || (s->tid == tid && s->start_ns <= time_ns)) lo = mid + 1;
        else hi = mid;
    }
    for (size_t k = 0; k < NESTING_LOOKBACK && lo > 0; k++) {
        const profile_span *s = &p->spans[ix->order[--lo]];
        if (s->tid != tid) break;
        if (s->end_ns >= time_ns) return (uint32_t)(ix->order[lo] + 1);
    }
    return 0;
}
