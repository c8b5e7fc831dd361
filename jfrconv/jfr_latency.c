/*
 * jfr_latency: an interval is [start, start + duration] of one thread; nested calls and overlapping spans
 * are merged, which keeps the lookup a binary search and keeps a sample inside two slow calls once.
 */
#include "jfr_latency.h"

#include "jfr_rchunk.h"
#include "jfr_sample.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int push(jfr_latency *l, jfr_interval iv) {
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 256;
        jfr_interval *grown = realloc(l->v, cap * sizeof(*grown));
        if (!grown) return -1;
        l->v = grown;
        l->cap = cap;
    }
    l->v[l->n++] = iv;
    return 0;
}

static int by_thread_then_start(const void *a, const void *b) {
    const jfr_interval *x = a, *y = b;
    if (x->tid != y->tid) return x->tid < y->tid ? -1 : 1;
    return x->from_ns < y->from_ns ? -1 : x->from_ns > y->from_ns;
}

static void sort_and_merge(jfr_latency *l) {
    if (!l->n) return;
    qsort(l->v, l->n, sizeof(*l->v), by_thread_then_start);
    size_t w = 0;
    for (size_t i = 1; i < l->n; i++) {
        jfr_interval *last = &l->v[w];
        if (l->v[i].tid == last->tid && l->v[i].from_ns <= last->to_ns) {
            if (l->v[i].to_ns > last->to_ns) last->to_ns = l->v[i].to_ns;
        } else {
            l->v[++w] = l->v[i];
        }
    }
    l->n = w + 1;
}

static int collect_chunk(jfr_rchunk *ch, uint64_t min_ns, uint64_t below_ns, jfr_latency *out) {
    jfr_sample_reader r;
    int rc = 0;
    if (jfr_sample_reader_init(&r, ch, JFR_EVENTS_INTERVALS) > 0) {
        size_t pos = 0;
        jfr_revent ev;
        jfr_sample s;
        char name[256];
        while (rc == 0 && (rc = jfr_rchunk_next(ch, &pos, &ev)) == 1) {
            rc = jfr_sample_read(&r, &ev, &s);
            if (rc != 1) continue;
            out->events++;
            uint64_t tid;
            rc = jfr_sample_thread(&r, &s, name, sizeof(name), &tid);
            if (rc == 0 && s.weight >= min_ns && (!below_ns || s.weight < below_ns) && push(out, (jfr_interval){tid, s.time_ns, s.time_ns + s.weight})) {
                jfr_cursor c = jfr_rchunk_cursor(ch, ev.start);
                rc = jfr_cursor_fail(&c, ev.start, "out of memory for the slow calls");
            }
        }
    }
    jfr_sample_reader_free(&r);
    return rc < 0 ? -1 : 0;
}

int jfr_latency_collect(const uint8_t *data, size_t size, uint64_t min_ns, uint64_t below_ns, jfr_latency *out,
                        jfr_error *err) {
    for (size_t at = 0; at < size;) {
        if (at > 0 && jfr_rchunk_unfinished(data, size, at)) break;
        jfr_rchunk ch;
        int rc = jfr_rchunk_open(&ch, data, size, at, err);
        if (rc == 0) rc = collect_chunk(&ch, min_ns, below_ns, out);
        size_t next = ch.end;
        jfr_rchunk_close(&ch);
        if (rc) return -1;
        at = next;
    }
    sort_and_merge(out);
    return 0;
}

bool jfr_latency_contains(const jfr_latency *l, uint64_t tid, uint64_t time_ns) {
    /* the last interval starting at or before (tid, time) */
    size_t lo = 0, hi = l->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const jfr_interval *m = &l->v[mid];
        if (m->tid < tid || (m->tid == tid && m->from_ns <= time_ns)) lo = mid + 1;
        else hi = mid;
    }
    return lo > 0 && l->v[lo - 1].tid == tid && l->v[lo - 1].to_ns >= time_ns;
}

void jfr_latency_free(jfr_latency *l) {
    free(l->v);
    memset(l, 0, sizeof(*l));
}

/* "Class.method" of the stack's top frame (the traced method), "?" when the event has none. */
static int top_method(jfr_sample_reader *r, const jfr_sample *s, char *out, size_t len) {
    snprintf(out, len, "?");
    bool truncated;
    const size_t *frames;
    uint32_t n;
    if (jfr_sample_stack(r, s, &truncated, &frames, &n)) return -1;
    if (n == 0) return 0;
    jfr_frame_info f;
    size_t method;
    if (jfr_sample_frame(r, s, frames[0], &f, &method)) return -1;
    snprintf(out, len, "%s.%s", f.cls, f.method);
    return 0;
}

int jfr_latency_call_spans(jfr_rchunk *ch, profile *p, uint64_t from_ns, uint64_t to_ns) {
    jfr_sample_reader r;
    int rc = 0, added = 0;
    if (jfr_sample_reader_init(&r, ch, JFR_EVENTS_TRACE) > 0) {
        size_t pos = 0;
        jfr_revent ev;
        jfr_sample s;
        char thread[256], method[1100], label[1500];
        uint64_t tid;
        while (rc == 0 && (rc = jfr_rchunk_next(ch, &pos, &ev)) == 1) {
            rc = jfr_sample_read(&r, &ev, &s);
            if (rc != 1) continue;
            rc = 0;
            uint64_t end = s.time_ns + s.weight;
            if (end < from_ns || s.time_ns > to_ns) continue;
            if (jfr_sample_thread(&r, &s, thread, sizeof(thread), &tid) || top_method(&r, &s, method, sizeof(method))) {
                rc = -1;
                break;
            }
            snprintf(label, sizeof(label), "slow call: %s %.1f ms (%s)", method, s.weight / 1e6, thread[0] ? thread : "?");
            if (profile_add_call_span(p, label, s.time_ns, end)) {
                jfr_cursor c = jfr_rchunk_cursor(ch, ev.start);
                rc = jfr_cursor_fail(&c, ev.start, "out of memory for the slow calls");
                break;
            }
            added++;
        }
    }
    jfr_sample_reader_free(&r);
    return rc < 0 ? -1 : added;
}
