#include "out_cpuprofile.h"

#include "child_index.h"
#include "completeness.h"
#include "json_out.h"
#include "profile_timeline.h"
#include "u64map.h"

#include <stdlib.h>

#define NO_NODE CHILD_INDEX_NONE

/* Per source line of a node: its self samples there (positionTicks). */
typedef struct {
    uint32_t node;
    int32_t line;
    uint64_t ticks;
} line_ticks;

typedef struct {
    child_tree tree;        /* payload: the node's hit count (uint64_t) */
    uint32_t *leaf;         /* each stack's leaf node */
    line_ticks *lines;      /* sorted by node, then line, once built */
    size_t line_count, line_capacity;
} cp_tree;

static uint64_t *hits_of(const cp_tree *t, uint32_t node) {
    return child_tree_payload(&t->tree, node);
}

/* Adds the leaf's samples to its line; 'where' maps (node, line) to an index into t->lines. */
static int add_line(cp_tree *t, u64map *where, uint32_t node, int32_t line, uint64_t samples) {
    uint64_t key = ((uint64_t)node + 1) << 32 | (uint32_t)line, at;
    if (u64map_get(where, key, &at)) {
        t->lines[at].ticks += samples;
        return 0;
    }
    if (t->line_count == t->line_capacity) {
        size_t cap = t->line_capacity ? t->line_capacity * 2 : 256;
        line_ticks *grown = realloc(t->lines, cap * sizeof(line_ticks));
        if (!grown) return -1;
        t->lines = grown;
        t->line_capacity = cap;
    }
    t->lines[t->line_count] = (line_ticks){node, line, samples};
    return u64map_put(where, key, t->line_count++);
}

static int by_node_line(const void *a, const void *b) {
    const line_ticks *x = a, *y = b;
    if (x->node != y->node) return x->node < y->node ? -1 : 1;
    return x->line < y->line ? -1 : x->line > y->line;
}

static int build(cp_tree *t, const profile *p) {
    t->leaf = malloc((p->stack_count ? p->stack_count : 1) * sizeof(uint32_t));
    if (!t->leaf || child_tree_child(&t->tree, NO_NODE, 0) != 0) return -1;   /* node 0: "(root)" */
    u64map where;
    u64map_init(&where);
    int rc = 0;
    for (size_t i = 0; i < p->stack_count && rc == 0; i++) {
        const profile_stack *s = &p->stacks[i];
        uint32_t node = 0;
        for (uint32_t f = 0; f < s->depth && node != NO_NODE; f++) node = child_tree_child(&t->tree, node, s->frames[f]);
        if (node == NO_NODE) {
            rc = -1;
            break;
        }
        t->leaf[i] = node;
        *hits_of(t, node) += s->samples;
        if (s->lines && s->depth && s->lines[s->depth - 1] > 0 && s->samples)
            rc = add_line(t, &where, node, s->lines[s->depth - 1], s->samples);
    }
    u64map_free(&where);
    if (t->lines) qsort(t->lines, t->line_count, sizeof(line_ticks), by_node_line);
    return rc;
}

/* callFrame: the function, its file as the url and its first line (0-based there; -1 unknown). */
static void write_call_frame(const profile *p, uint32_t node, uint32_t name, FILE *out) {
    fputs("\"callFrame\":{\"functionName\":", out);
    json_out_string(out, node ? p->names[name] : "(root)");
    profile_source src = node ? profile_source_of(p, name) : (profile_source){"", 0};
    fputs(",\"scriptId\":\"0\",\"url\":", out);
    json_out_string(out, src.file);
    fprintf(out, ",\"lineNumber\":%d,\"columnNumber\":-1}", src.start_line > 0 ? src.start_line - 1 : -1);
}

static void write_nodes(const cp_tree *t, const profile *p, FILE *out) {
    fputs("\"nodes\":[", out);
    size_t line = 0;
    const child_node *nodes = t->tree.nodes;
    for (uint32_t n = 0; n < t->tree.count; n++) {
        fprintf(out, "%s{\"id\":%u,", n ? ",\n" : "", n + 1);
        write_call_frame(p, n, nodes[n].name, out);
        fprintf(out, ",\"hitCount\":%llu", (unsigned long long)*hits_of(t, n));
        if (nodes[n].first_child != NO_NODE) {
            fputs(",\"children\":[", out);
            for (uint32_t c = nodes[n].first_child; c != NO_NODE; c = nodes[c].next_sibling)
                fprintf(out, "%u%s", c + 1, nodes[c].next_sibling != NO_NODE ? "," : "");
            fputc(']', out);
        }
        /* Self samples per source line (1-based, as DevTools' PositionTickInfo has them). */
        if (line < t->line_count && t->lines[line].node == n) {
            fputs(",\"positionTicks\":[", out);
            for (bool first = true; line < t->line_count && t->lines[line].node == n; line++, first = false)
                fprintf(out, "%s{\"line\":%d,\"ticks\":%llu}", first ? "" : ",", t->lines[line].line,
                        (unsigned long long)t->lines[line].ticks);
            fputc(']', out);
        }
        fputc('}', out);
    }
    fputs("]", out);
}

/* The last sample's length: nothing follows it to say. */
static uint64_t closing_us(const profile *p) {
    uint64_t us = (p->meta.interval_ns ? p->meta.interval_ns : 1000000) / 1000;
    return us ? us : 1;
}

/* Samples at their recorded times (p->ticks, sorted): delta i is the time since sample i-1; a last sample
 * on "(root)" closes the last real one. Sets the start and end in microseconds. */
static void write_recorded_samples(const cp_tree *t, const profile *p, FILE *out, uint64_t *start_us,
                                   uint64_t *end_us) {
    fputs(",\n\"samples\":[", out);
    for (size_t i = 0; i < p->tick_count; i++) fprintf(out, "%u,", t->leaf[p->ticks[i].stack] + 1);
    fputs("1],\n\"timeDeltas\":[", out);
    *start_us = p->tick_count ? p->ticks[0].time_ns / 1000 : 0;
    uint64_t previous_us = *start_us;
    for (size_t i = 0; i < p->tick_count; i++) {
        uint64_t us = p->ticks[i].time_ns / 1000;
        fprintf(out, "%llu,", (unsigned long long)(us - previous_us));
        previous_us = us;
    }
    fprintf(out, "%llu]", (unsigned long long)closing_us(p));
    *end_us = previous_us + closing_us(p);
}

/* Samples in the synthesised order (profile_timeline.h): delta i is sample i-1's duration. */
static void write_synthesised_samples(const cp_tree *t, const profile *p, FILE *out, uint64_t *start_us,
                                      uint64_t *end_us) {
    fputs(",\n\"samples\":[", out);
    bool first = true;
    for (size_t i = 0; i < p->stack_count; i++) {
        for (uint64_t k = 0; k < p->stacks[i].samples; k++) {
            fprintf(out, "%s%u", first ? "" : ",", t->leaf[i] + 1);
            first = false;
        }
    }
    fprintf(out, "%s1],\n\"timeDeltas\":[", first ? "" : ",");
    uint64_t previous_us = 0, elapsed_us = 0;
    first = true;
    for (size_t i = 0; i < p->stack_count; i++) {
        uint64_t us = profile_timeline_sample_ns(p, &p->stacks[i]) / 1000;
        if (!us) us = 1;
        for (uint64_t k = 0; k < p->stacks[i].samples; k++) {
            fprintf(out, "%s%llu", first ? "" : ",", (unsigned long long)previous_us);
            first = false;
            elapsed_us += us;
            previous_us = us;
        }
    }
    fprintf(out, "%s%llu]", first ? "" : ",", (unsigned long long)previous_us);
    *start_us = 0;
    *end_us = elapsed_us;
}

int out_cpuprofile_write(const profile *p, FILE *out) {
    cp_tree t = {0};
    child_tree_init(&t.tree, sizeof(uint64_t));
    int rc = -1;
    if (build(&t, p) == 0) {
        fputc('{', out);
        write_nodes(&t, p, out);
        uint64_t start_us, end_us;
        bool recorded = p->tick_count > 0;
        (recorded ? write_recorded_samples : write_synthesised_samples)(&t, p, out, &start_us, &end_us);
        fprintf(out, ",\n\"startTime\":%llu,\"endTime\":%llu,\n\"libprof\":{\"completeness\":",
                (unsigned long long)start_us, (unsigned long long)end_us);
        char completeness[1024];
        completeness_summary(p, completeness, sizeof(completeness));
        json_out_string(out, completeness);
        fprintf(out, ",\"dropped\":%llu,\"failed\":%llu,\"synthesisedOrder\":%s}}\n",
                (unsigned long long)completeness_dropped(p), (unsigned long long)completeness_failed(p),
                recorded ? "false" : "true");
        rc = ferror(out) ? -1 : 0;
    }
    child_tree_free(&t.tree);
    free(t.leaf);
    free(t.lines);
    return rc;
}
