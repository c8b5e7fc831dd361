/*
 * out_heatmap: the flame graph page (out_html) with the samples' times added, so the page can draw a strip
 * of sample density over time and the flame graph of any range of it. Times are cut into cells of
 * OUT_HEATMAP_CELL_MS; each cell lists, for the stacks sampled in it, the page's tree node where the stack
 * ends and how many samples it had there. The page scales those counts by the node's own value, so a range
 * shows samples, or the weight with 'total' (each sample of a stack standing for its average weight).
 * Everything is base 36, like the tree: "gap,pairs,node,count,node,count,...", one group per cell that had
 * samples, the gap counting the cells since the previous group.
 */
#include "out_heatmap.h"

#include "calltree.h"
#include "out_html.h"

#include <stdlib.h>

/* The written node where stack 's' ends: its path down the tree, stopping at the last node written (the
 * rest was narrower than minwidth and counts as that node's own). UINT32_MAX when not even the first was. */
static uint32_t stack_node(const calltree *t, const uint32_t *written, const profile_stack *s) {
    uint32_t node = 0, last = UINT32_MAX;
    for (uint32_t d = 0; d < s->depth; d++) {
        uint32_t c = t->nodes[node].first_child;
        while (c != CALLTREE_NONE && t->nodes[c].name != s->frames[d]) c = t->nodes[c].next_sibling;
        if (c == CALLTREE_NONE || written[c] == UINT32_MAX) break;
        node = c;
        last = written[c];
    }
    return last;
}

typedef struct {
    uint32_t node;
    uint64_t count;
} node_count;

static int by_node(const void *a, const void *b) {
    const node_count *x = a, *y = b;
    return x->node < y->node ? -1 : x->node > y->node;
}

/* One cell's group: its samples' (node, 1) pairs, merged by node. */
static void write_cell(FILE *out, uint64_t gap, node_count *pairs, size_t n) {
    qsort(pairs, n, sizeof(*pairs), by_node);
    size_t merged = 0;
    for (size_t i = 0; i < n; i++) {
        if (merged && pairs[merged - 1].node == pairs[i].node) pairs[merged - 1].count += pairs[i].count;
        else pairs[merged++] = pairs[i];
    }
    out_html_base36(out, gap);
    fputc(',', out);
    out_html_base36(out, merged);
    for (size_t i = 0; i < merged; i++) {
        fputc(',', out);
        out_html_base36(out, pairs[i].node);
        fputc(',', out);
        out_html_base36(out, pairs[i].count);
    }
}

static int write_heatmap(const profile *p, const calltree *t, const uint32_t *written, FILE *out, void *arg) {
    (void)arg;
    uint32_t *ends = malloc((p->stack_count ? p->stack_count : 1) * sizeof(uint32_t));
    node_count *pairs = malloc((p->tick_count ? p->tick_count : 1) * sizeof(node_count));
    if (!ends || !pairs) {
        free(ends);
        free(pairs);
        return -1;
    }
    for (size_t i = 0; i < p->stack_count; i++)
        ends[i] = profile_value(p, &p->stacks[i]) ? stack_node(t, written, &p->stacks[i]) : UINT32_MAX;
    const uint64_t cell_ns = (uint64_t)OUT_HEATMAP_CELL_MS * 1000000;
    uint64_t start = p->meta.start_unix_ns;
    if (p->tick_count && (!start || p->ticks[0].time_ns < start)) start = p->ticks[0].time_ns;
    uint64_t end = p->meta.duration_ns ? start + p->meta.duration_ns : start;
    if (p->tick_count && p->ticks[p->tick_count - 1].time_ns >= end) end = p->ticks[p->tick_count - 1].time_ns + 1;
    /* Milliseconds since the epoch fit a JavaScript number exactly; nanoseconds would not. */
    fprintf(out, ",\n\"heatmap\":{\"startMs\":%llu,\"cellMs\":%d,\"cellCount\":%llu,\"cells\":\"",
            (unsigned long long)(start / 1000000), OUT_HEATMAP_CELL_MS,
            (unsigned long long)((end - start + cell_ns - 1) / cell_ns));
    /* The origin is the start's millisecond: cells are counted from there. */
    uint64_t origin = start / 1000000 * 1000000, previous = 0;
    bool first = true;
    for (size_t i = 0; i < p->tick_count;) {
        uint64_t cell = (p->ticks[i].time_ns - origin) / cell_ns;
        size_t n = 0;
        for (; i < p->tick_count && (p->ticks[i].time_ns - origin) / cell_ns == cell; i++) {
            uint32_t node = p->ticks[i].stack < p->stack_count ? ends[p->ticks[i].stack] : UINT32_MAX;
            if (node != UINT32_MAX) pairs[n++] = (node_count){node, 1};
        }
        if (!n) continue;
        if (!first) fputc(',', out);
        write_cell(out, first ? cell : cell - previous, pairs, n);
        previous = cell;
        first = false;
    }
    fputs("\"}", out);
    free(ends);
    free(pairs);
    return ferror(out) ? -1 : 0;
}

int out_heatmap_write(const profile *p, FILE *out, const out_html_options *opt) {
    out_html_extra extra = {write_heatmap, NULL};
    return out_html_write_extra(p, out, opt, &extra);
}
