#include "out_text.h"

#include "names.h"

#include <stdlib.h>
#include <string.h>

static double percent(uint64_t part, uint64_t whole) {
    return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static void write_walker_stats(const profile *p, FILE *out);

static void write_header(const profile *p, FILE *out) {
    const profile_meta *m = &p->meta;
    /* async-profiler's labels for what both report, so scripts written for it read ours. */
    fprintf(out, "--- Execution profile ---\n");
    fprintf(out, "Total samples       : %llu\n", (unsigned long long)p->total_samples);
    if (m->title[0]) fprintf(out, "Title          : %s\n", m->title);
    fprintf(out, "Engine         : %s (event=%s)\n", m->engine, m->event);
    if (strcmp(m->units, "ns") == 0)
        fprintf(out, "Interval       : %llu ns (%.3f ms)\n", (unsigned long long)m->interval_ns, m->interval_ns / 1e6);
    else   /* counted events (perf page-faults...): the interval is a count */
        fprintf(out, "Interval       : %llu %s\n", (unsigned long long)m->interval_ns, m->units);
    fprintf(out, "Duration       : %.3f s\n", m->duration_ns / 1e9);
    if (m->counts[0]) fprintf(out, "Counts         : %s\n", m->counts);
    if (m->warning[0]) fprintf(out, "Warning        : %s\n", m->warning);
    if (strcmp(m->units, "calls") == 0)   /* instrumentation: every sample is one recorded call */
        fprintf(out, "Calls recorded : %llu\n", (unsigned long long)p->total_samples);
    fprintf(out, "Total weight   : %llu %s\n", (unsigned long long)p->total_weight, m->units);
    fprintf(out, "Distinct stacks: %zu\n", p->stack_count);
    uint64_t dropped = 0, failed = 0;
    for (int i = 0; i < m->drop_count; i++) dropped += m->drops[i].count;
    for (int i = 0; i < m->failure_count; i++) failed += m->failures[i].count;
    fprintf(out, "Dropped samples: %llu\n", (unsigned long long)dropped);
    for (int i = 0; i < m->drop_count; i++)
        fprintf(out, "  %-22s %llu\n", m->drops[i].name, (unsigned long long)m->drops[i].count);
    fprintf(out, "Failed walks   : %llu (%.2f%% of samples, stored as marker frames)\n", (unsigned long long)failed,
            percent(failed, p->total_samples));
    for (int i = 0; i < m->failure_count; i++)
        fprintf(out, "  %-22s %llu\n", m->failures[i].name, (unsigned long long)m->failures[i].count);
    if (m->stats) write_walker_stats(p, out);
    fputc('\n', out);
}

/* features=stats (async-profiler's spelling): how the walker did, for whoever tunes it, not for every
 * reader of a profile. */
static void write_walker_stats(const profile *p, FILE *out) {
    const profile_meta *m = &p->meta;
    if (strcmp(m->cstack, "vm") == 0) {
        uint64_t stitched = 0;
        for (int i = 0; i < m->stitched_count; i++) stitched += m->stitched[i].count;
        fprintf(out, "VM walk problems: %llu (%.2f%% of samples: cstack=vm ended early, named a frame partly, or "
                "stitched)\n",
                (unsigned long long)stitched, percent(stitched, p->total_samples));
        for (int i = 0; i < m->stitched_count; i++)
            fprintf(out, "  %-22s %llu\n", m->stitched[i].name, (unsigned long long)m->stitched[i].count);
        fprintf(out, "Walker-named   : %llu (%.2f%% of samples: Java frames named by the walker, not AsyncGetCallTrace)\n", (unsigned long long)m->self_named, percent(m->self_named, p->total_samples));
    }
    fprintf(out, "Cost per sample (cstack=%s):\n", m->cstack[0] ? m->cstack : "?");
    for (int d = 0; d < SAMPLE_COST_DEPTH_BUCKETS; d++) {
        if (!m->cost[d].count) continue;
        fprintf(out, "  depth %-7s %8llu samples, median %6llu ns, p99 %7llu ns\n", m->cost[d].depths,
                (unsigned long long)m->cost[d].count, (unsigned long long)m->cost[d].median_ns,
                (unsigned long long)m->cost[d].p99_ns);
    }
}

static void write_traces(const profile *p, FILE *out, const size_t *order, int limit) {
    uint64_t total = profile_total_value(p);
    for (size_t k = 0; k < p->stack_count && (int)k < limit; k++) {
        const profile_stack *s = &p->stacks[order[k]];
        const char *unit = profile_value_unit(p);
        fprintf(out, "--- %llu %s (%.2f%%)", (unsigned long long)profile_value(p, s), unit,
                percent(profile_value(p, s), total));
        /* async-profiler's header: the weight, then the samples; said once when the value is the samples. */
        if (strcmp(unit, "samples") == 0) fputc('\n', out);
        else fprintf(out, ", %llu sample%s\n", (unsigned long long)s->samples, s->samples == 1 ? "" : "s");
        for (uint32_t f = s->depth; f-- > 0;) {
            fprintf(out, "  [%2u] ", s->depth - 1 - f);
            names_fputs_escaped(p->names[s->frames[f]], NULL, out);
            fputc('\n', out);
        }
        fputc('\n', out);
    }
}

typedef struct {
    uint32_t name;
    uint64_t value;
} flat_entry;

static int flat_desc(const void *a, const void *b) {
    const flat_entry *x = a, *y = b;
    if (x->value != y->value) return x->value < y->value ? 1 : -1;
    return x->name < y->name ? -1 : x->name > y->name;
}

static int write_flat(const profile *p, FILE *out, int limit) {
    flat_entry *self = calloc(p->name_count ? p->name_count : 1, sizeof(flat_entry));
    if (!self) return -1;
    for (uint32_t i = 0; i < p->name_count; i++) self[i].name = i;
    for (size_t i = 0; i < p->stack_count; i++) {
        const profile_stack *s = &p->stacks[i];
        if (s->depth) self[s->frames[s->depth - 1]].value += profile_value(p, s);
    }
    qsort(self, p->name_count, sizeof(flat_entry), flat_desc);
    uint64_t total = profile_total_value(p);
    fprintf(out, "%14s  %7s  %s\n", profile_value_unit(p), "percent", "self (leaf frame)");
    fprintf(out, "%14s  %7s  %s\n", "--------------", "-------", "-----------------");
    for (uint32_t i = 0; i < p->name_count && (int)i < limit && self[i].value; i++) {
        fprintf(out, "%14llu  %6.2f%%  ", (unsigned long long)self[i].value, percent(self[i].value, total));
        names_fputs_escaped(p->names[self[i].name], NULL, out);
        fputc('\n', out);
    }
    free(self);
    return 0;
}

int out_text_write(const profile *p, FILE *out, int traces, int flat) {
    write_header(p, out);
    if (traces) {
        size_t *order = profile_sorted_stacks(p);
        if (!order) return -1;
        write_traces(p, out, order, traces);
        free(order);
    }
    if (flat && write_flat(p, out, flat)) return -1;
    return ferror(out) ? -1 : 0;
}
