#include "out_cpuprofile.h"

#include "completeness.h"
#include "json_out.h"
#include "profile_timeline.h"
#include "child_index.h"
#include "u64map.h"

#include <stdlib.h>

typedef struct {
    uint32_t name, first_child, next_sibling;
    uint64_t hits;
} cp_node;

typedef struct {
    cp_node *nodes;
    uint32_t count, capacity;
    u64map children;        /* child_index: (parent, name) -> node */
    uint32_t *leaf;         /* each stack's leaf node */
} cp_tree;

#define NO_NODE UINT32_MAX

static uint32_t child(cp_tree *t, uint32_t parent, uint32_t name) {
    bool added;
    uint32_t id = child_index_get(&t->children, parent, name, t->count, &added);
    if (!added) return id;
    if (t->count == t->capacity) {
        uint32_t cap = t->capacity ? t->capacity * 2 : 1024;
        cp_node *grown = realloc(t->nodes, cap * sizeof(cp_node));
        if (!grown) return NO_NODE;   /* the index keeps an id never used: the whole tree is abandoned */
        t->nodes = grown;
        t->capacity = cap;
    }
    t->count++;
    t->nodes[id] = (cp_node){name, NO_NODE, NO_NODE, 0};
    if (parent != NO_NODE) {
        t->nodes[id].next_sibling = t->nodes[parent].first_child;
        t->nodes[parent].first_child = id;
    }
    return id;
}

static int build(cp_tree *t, const profile *p) {
    t->leaf = malloc((p->stack_count ? p->stack_count : 1) * sizeof(uint32_t));
    if (!t->leaf || child(t, NO_NODE, 0) != 0) return -1;   /* node 0: "(root)" */
    for (size_t i = 0; i < p->stack_count; i++) {
        const profile_stack *s = &p->stacks[i];
        uint32_t node = 0;
        for (uint32_t f = 0; f < s->depth && node != NO_NODE; f++) node = child(t, node, s->frames[f]);
        if (node == NO_NODE) return -1;
        t->leaf[i] = node;
        t->nodes[node].hits += s->samples;
    }
    return 0;
}

static void write_nodes(const cp_tree *t, const profile *p, FILE *out) {
    fputs("\"nodes\":[", out);
    for (uint32_t n = 0; n < t->count; n++) {
        fprintf(out, "%s{\"id\":%u,\"callFrame\":{\"functionName\":", n ? ",\n" : "", n + 1);
        json_out_string(out, n ? p->names[t->nodes[n].name] : "(root)");
        fprintf(out, ",\"scriptId\":\"0\",\"url\":\"\",\"lineNumber\":-1,\"columnNumber\":-1},\"hitCount\":%llu",
                (unsigned long long)t->nodes[n].hits);
        if (t->nodes[n].first_child != NO_NODE) {
            fputs(",\"children\":[", out);
            for (uint32_t c = t->nodes[n].first_child; c != NO_NODE; c = t->nodes[c].next_sibling)
                fprintf(out, "%u%s", c + 1, t->nodes[c].next_sibling != NO_NODE ? "," : "");
            fputc(']', out);
        }
        fputc('}', out);
    }
    fputs("]", out);
}

/* Samples, then their deltas: delta i is the time since sample i-1, i.e. sample i-1's duration. */
static uint64_t write_samples(const cp_tree *t, const profile *p, FILE *out) {
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
    return elapsed_us;
}

int out_cpuprofile_write(const profile *p, FILE *out) {
    cp_tree t = {0};
    u64map_init(&t.children);
    int rc = -1;
    if (build(&t, p) == 0) {
        fputc('{', out);
        write_nodes(&t, p, out);
        uint64_t elapsed_us = write_samples(&t, p, out);
        fprintf(out, ",\n\"startTime\":0,\"endTime\":%llu,\n\"libprof\":{\"completeness\":", (unsigned long long)elapsed_us);
        char completeness[1024];
        completeness_summary(p, completeness, sizeof(completeness));
        json_out_string(out, completeness);
        fprintf(out, ",\"dropped\":%llu,\"failed\":%llu,\"synthesisedOrder\":true}}\n",
                (unsigned long long)completeness_dropped(p), (unsigned long long)completeness_failed(p));
        rc = ferror(out) ? -1 : 0;
    }
    free(t.nodes);
    free(t.leaf);
    u64map_free(&t.children);
    return rc;
}
