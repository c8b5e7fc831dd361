/*
 * out_html: the data is one JavaScript object placed where the template says PROFILE_DATA. The tree is
 * written in preorder as base-36 triples "name,total,children" (name ids renumbered in order of first use,
 * so the hottest frames get the shortest ids); the page rebuilds the tree, self values and the reversed
 * view from it. Names are JSON strings with '<' '>' '&' escaped, so no frame name can end the script.
 */
#include "out_html.h"

#include "calltree.h"
#include "completeness.h"
#include "html_asprof_frames.h"
#include "json_out.h"

#include <stdlib.h>
#include <string.h>

/* Generated from resources/flamegraph.html by resources/embed.cmake. */
extern const char html_template[];
extern const size_t html_template_len;

#define DATA_MARKER "/*@PROFILE_DATA@*/"

void out_html_base36(FILE *out, uint64_t v) {
    char buf[16];
    int n = 0;
    do {
        buf[n++] = "0123456789abcdefghijklmnopqrstuvwxyz"[v % 36];
        v /= 36;
    } while (v);
    while (n) fputc(buf[--n], out);
}

/* The page's palette is keyed by these names, so new frame types only add a key here and a colour there. */
static const char *type_key(frame_type t) {
    switch (t) {
    case FTYPE_JAVA: return "java";
    case FTYPE_NATIVE: return "native";
    case FTYPE_KERNEL: return "kernel";
    case FTYPE_MARKER: return "marker";
    case FTYPE_THREAD: return "thread";
    case FTYPE_INTERPRETED: return "interpreted";
    case FTYPE_C1: return "c1";
    case FTYPE_JIT: return "jit";
    case FTYPE_INLINED: return "inlined";
    case FTYPE_CLASS: return "class";
    }
    return "other";
}
#define TYPE_KEY_COUNT (FTYPE_CLASS + 1)

typedef struct {
    const calltree *tree;
    uint64_t min_total;      /* nodes below this are not written */
    uint32_t *out_id;        /* profile name id -> written id, UINT32_MAX when not yet used */
    uint32_t *used;          /* written id -> profile name id */
    uint32_t used_count;
    uint32_t *written;       /* calltree node -> its position in the written preorder, or NULL */
} tree_writer;

static bool kept(const tree_writer *w, uint32_t node) {
    uint64_t total = w->tree->nodes[node].total;
    return total > 0 && total >= w->min_total;
}

static uint32_t kept_children(const tree_writer *w, uint32_t node) {
    uint32_t n = 0;
    for (uint32_t c = w->tree->nodes[node].first_child; c != CALLTREE_NONE; c = w->tree->nodes[c].next_sibling)
        n += kept(w, c);
    return n;
}

/* Preorder with an explicit stack: Java stacks can be thousands of frames deep. */
static int write_tree(tree_writer *w, FILE *out) {
    const calltree *t = w->tree;
    uint32_t *todo = malloc((size_t)t->count * sizeof(uint32_t));
    if (!todo) return -1;
    uint32_t top = 0, position = 0;
    out_html_base36(out, kept_children(w, 0));
    for (uint32_t c = t->nodes[0].first_child; c != CALLTREE_NONE; c = t->nodes[c].next_sibling)
        if (kept(w, c)) todo[top++] = c;
    while (top) {
        uint32_t node = todo[--top];
        uint32_t name = t->nodes[node].name;
        if (w->written) w->written[node] = position;
        position++;
        if (w->out_id[name] == UINT32_MAX) {
            w->out_id[name] = w->used_count;
            w->used[w->used_count++] = name;
        }
        fputc(',', out);
        out_html_base36(out, w->out_id[name]);
        fputc(',', out);
        out_html_base36(out, t->nodes[node].total);
        fputc(',', out);
        out_html_base36(out, kept_children(w, node));
        for (uint32_t c = t->nodes[node].first_child; c != CALLTREE_NONE; c = t->nodes[c].next_sibling)
            if (kept(w, c)) todo[top++] = c;
    }
    free(todo);
    return 0;
}

static void write_names(const tree_writer *w, const profile *p, FILE *out) {
    fputs(",\n\"names\":[", out);
    for (uint32_t i = 0; i < w->used_count; i++) {
        if (i) fputs(",\n", out);
        json_out_string(out, p->names[w->used[i]]);
    }
    fputs("],\n\"types\":\"", out);
    for (uint32_t i = 0; i < w->used_count; i++) fputc("0123456789abcdefghijklmnopqrstuvwxyz"[p->types[w->used[i]] % 36], out);
    fputs("\",\n\"typeKeys\":[", out);
    for (int i = 0; i < TYPE_KEY_COUNT; i++) fprintf(out, "%s\"%s\"", i ? "," : "", type_key((frame_type)i));
    fputc(']', out);
}

static void write_meta(const profile *p, const out_html_options *opt, bool heatmap, uint64_t total, FILE *out) {
    fputs("{\"title\":", out);
    json_out_string(out, p->meta.title[0] ? p->meta.title
                         : opt->tree ? "Call tree" : heatmap ? "Heatmap" : "Flame graph");
    fputs(",\"engine\":", out);
    json_out_string(out, p->meta.engine);
    fputs(",\"event\":", out);
    json_out_string(out, p->meta.event);
    fputs(",\"units\":", out);
    json_out_string(out, profile_value_unit(p));
    fputs(",\"counts\":", out);
    json_out_string(out, p->meta.counts);
    fputs(",\"warning\":", out);
    json_out_string(out, p->meta.warning);
    char completeness[1024];
    completeness_summary(p, completeness, sizeof(completeness));
    fputs(",\"completeness\":", out);
    json_out_string(out, completeness);
    fputs(",\"highlight\":", out);
    json_out_string(out, opt->highlight ? opt->highlight : "");
    fprintf(out, ",\"total\":%llu,\"samples\":%llu,\"durationNs\":%llu,\"minwidth\":%g", (unsigned long long)total,
            (unsigned long long)p->total_samples, (unsigned long long)p->meta.duration_ns, opt->minwidth);
    fprintf(out, ",\"view\":\"%s\",\"reverse\":%s,\"inverted\":%s", opt->tree ? "tree" : "flame",
            opt->reverse ? "true" : "false", opt->inverted ? "true" : "false");
}

/* Nodes narrower than minwidth percent of the total are left out, with everything above them. */
static uint64_t min_total_of(const out_html_options *opt, uint64_t total) {
    double min = opt->minwidth * (double)total / 100.0;
    return (uint64_t)min + ((double)(uint64_t)min < min);
}

static int write_data(const profile *p, const out_html_options *opt, const out_html_extra *extra, FILE *out) {
    calltree t;
    if (calltree_build(&t, p)) return -1;
    uint64_t total = t.nodes[0].total;
    tree_writer w = {&t, min_total_of(opt, total), NULL, NULL, 0, NULL};
    size_t names = p->name_count ? p->name_count : 1;
    w.out_id = malloc(names * sizeof(uint32_t));
    w.used = malloc(names * sizeof(uint32_t));
    if (extra) w.written = malloc((t.count ? t.count : 1) * sizeof(uint32_t));
    int rc = -1;
    if (w.out_id && w.used && (!extra || w.written)) {
        memset(w.out_id, 0xff, names * sizeof(uint32_t));
        if (w.written) memset(w.written, 0xff, (t.count ? t.count : 1) * sizeof(uint32_t));
        write_meta(p, opt, extra != NULL, total, out);
        fputs(",\n\"tree\":\"", out);
        rc = write_tree(&w, out);
        fputc('"', out);
        if (rc == 0) write_names(&w, p, out);
        if (rc == 0 && extra) rc = extra->write(p, &t, w.written, out, extra->arg);
        fputs("}", out);
    }
    free(w.out_id);
    free(w.used);
    free(w.written);
    calltree_free(&t);
    return rc;
}

static int write_asprof_frames(const profile *p, const out_html_options *opt, FILE *out) {
    calltree t;
    if (calltree_build(&t, p)) return -1;
    int rc = html_asprof_frames_write(&t, p, min_total_of(opt, t.nodes[0].total), out);
    calltree_free(&t);
    return rc;
}

int out_html_write(const profile *p, FILE *out, const out_html_options *opt) {
    return out_html_write_extra(p, out, opt, NULL);
}

int out_html_write_extra(const profile *p, FILE *out, const out_html_options *opt, const out_html_extra *extra) {
    const char *marker = strstr(html_template, DATA_MARKER);
    if (!marker) return -1;
    fwrite(html_template, 1, (size_t)(marker - html_template), out);
    if (write_data(p, opt, extra, out)) return -1;
    const char *rest = marker + strlen(DATA_MARKER), *end = html_template + html_template_len;
    /* async-profiler's converter reads our page from its own layout of the frames, before </body>. */
    const char *body_end = strstr(rest, "</body>");
    if (!body_end) body_end = end;
    fwrite(rest, 1, (size_t)(body_end - rest), out);
    if (write_asprof_frames(p, opt, out)) return -1;
    fwrite(body_end, 1, (size_t)(end - body_end), out);
    return ferror(out) ? -1 : 0;
}
