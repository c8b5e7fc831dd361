#define _GNU_SOURCE
#include "out_diff.h"

#include "json_out.h"
#include "names.h"
#include "child_index.h"
#include "u64map.h"

#include <math.h>
#include <stdlib.h>

static int by_change(const void *a, const void *b, void *arg) {
    const profile_diff *d = arg;
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    double dx = fabs(d->next[x] - d->base[x]), dy = fabs(d->next[y] - d->base[y]);
    if (dx != dy) return dx < dy ? 1 : -1;
    return x < y ? -1 : x > y;
}

static double percent_change(double base, double next) {
    return base > 0 ? 100.0 * (next - base) / base : 0.0;
}

int out_diff_write_text(const profile_diff *d, const out_diff_labels *l, FILE *out) {
    const profile *u = &d->stacks;
    size_t *order = malloc((u->stack_count ? u->stack_count : 1) * sizeof(size_t));
    if (!order) return -1;
    for (size_t i = 0; i < u->stack_count; i++) order[i] = i;
    qsort_r(order, u->stack_count, sizeof(size_t), by_change, (void *)d);
    fprintf(out, "--- Differential profile ---\n");
    fprintf(out, "Base           : %s (%s)\n", l->base_name, l->base_summary);
    fprintf(out, "New            : %s (%s)\n", l->next_name, l->next_summary);
    fprintf(out, "Normalised     : %s (%s)\n", d->unit,
            d->per_second ? "per second of each recording" : "durations unknown: share of each profile's samples");
    fprintf(out, "Total          : base %.4f, new %.4f, delta %+.4f\n\n", d->base_total, d->next_total,
            d->next_total - d->base_total);
    fprintf(out, "%-8s %14s %14s %14s %9s  %s\n", "change", "delta", "base", "new", "delta %", "stack");
    for (size_t k = 0; k < u->stack_count; k++) {
        size_t i = order[k];
        diff_change c = profile_diff_change(d->base[i], d->next[i]);
        fprintf(out, "%-8s %+14.4f %14.4f %14.4f ", profile_diff_change_name(c), d->next[i] - d->base[i], d->base[i],
                d->next[i]);
        if (c == DIFF_ADDED || c == DIFF_REMOVED) fprintf(out, "%9s  ", "");
        else fprintf(out, "%+8.1f%%  ", percent_change(d->base[i], d->next[i]));
        const profile_stack *s = &u->stacks[i];
        for (uint32_t f = 0; f < s->depth; f++) {
            if (f) fputc(';', out);
            names_fputs_escaped(u->names[s->frames[f]], ";", out);
        }
        fputc('\n', out);
    }
    free(order);
    return ferror(out) ? -1 : 0;
}

/* The merged tree of the union's stacks: each node with its base and new totals (its payload). */
typedef struct {
    double base, next;
} diff_value;

#define NO_NODE CHILD_INDEX_NONE

static diff_value *value_of(const child_tree *t, uint32_t node) {
    return child_tree_payload(t, node);
}

static int build_tree(child_tree *t, const profile_diff *d) {
    if (child_tree_child(t, NO_NODE, 0) != 0) return -1;
    for (size_t i = 0; i < d->stacks.stack_count; i++) {
        const profile_stack *s = &d->stacks.stacks[i];
        uint32_t node = 0;
        value_of(t, 0)->base += d->base[i];
        value_of(t, 0)->next += d->next[i];
        for (uint32_t f = 0; f < s->depth; f++) {
            if ((node = child_tree_child(t, node, s->frames[f])) == NO_NODE) return -1;
            value_of(t, node)->base += d->base[i];
            value_of(t, node)->next += d->next[i];
        }
    }
    return 0;
}

/* What was removed below a node (its base value where the new profile has nothing), drawn at that width so
 * that it stays visible beside the new profile's frames. */
static double removed_width(const child_tree *t, uint32_t node) {
    const diff_value *n = value_of(t, node);
    if (n->next == 0) return n->base;
    double w = 0;
    for (uint32_t c = t->nodes[node].first_child; c != NO_NODE; c = t->nodes[c].next_sibling) w += removed_width(t, c);
    return w;
}

static int write_nodes(const child_tree *t, const profile_diff *d, FILE *out) {
    /* Preorder with an explicit stack (deep Java stacks); rows [left %, width %, depth, name, base, new,
     * delta relative to the largest change]. Frames narrower than 0.01% are left out. */
    typedef struct { uint32_t node, depth; double left; } item;
    item *todo = malloc((size_t)(t->count ? t->count : 1) * sizeof(item));
    if (!todo) return -1;
    uint32_t top = 0;
    double total = value_of(t, 0)->next + removed_width(t, 0);
    double max_delta = 0;
    for (uint32_t i = 1; i < t->count; i++) max_delta = fmax(max_delta, fabs(value_of(t, i)->next - value_of(t, i)->base));
    todo[top++] = (item){0, 0, 0};
    bool first = true;
    while (top) {
        item it = todo[--top];
        const diff_value *n = value_of(t, it.node);
        double w = n->next + removed_width(t, it.node);
        if (it.node && total > 0 && w / total >= 0.0001) {
            fprintf(out, "%s[%.6f,%.6f,%u,", first ? "" : ",\n", 100 * it.left / total, 100 * w / total, it.depth - 1);
            json_out_string(out, d->stacks.names[t->nodes[it.node].name]);
            fprintf(out, ",%.6g,%.6g,%.4f]", n->base, n->next, max_delta > 0 ? (n->next - n->base) / max_delta : 0);
            first = false;
        }
        double left = it.left;
        for (uint32_t c = t->nodes[it.node].first_child; c != NO_NODE; c = t->nodes[c].next_sibling) {
            todo[top++] = (item){c, it.depth + 1, left};
            left += value_of(t, c)->next + removed_width(t, c);
        }
    }
    free(todo);
    return 0;
}

/* The page: frames as absolutely placed divs (few enough for a diff); click a frame to zoom into it (its
 * ancestors span the width, its siblings' subtrees hide), click the root or "Reset zoom" to go back; the
 * search box marks frames whose name matches (a regular expression, else plain text) and sums their
 * outermost matches' base, new and delta. The background colour is set alone: the shorthand would undo
 * the removed frames' hatching (a background-image from their class). */
static const char page_head[] =
    "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>libprof differential profile</title><style>"
    "body{font:12px sans-serif;margin:8px}#g{position:relative}"
    ".f{position:absolute;height:16px;overflow:hidden;white-space:nowrap;box-sizing:border-box;"
    "border:1px solid #fff;padding-left:2px;line-height:14px;cursor:pointer}"
    ".removed{background-image:repeating-linear-gradient(45deg,transparent 0 3px,rgba(255,255,255,.6) 3px 6px)}"
    ".match{outline:2px solid #c0f;outline-offset:-2px;font-weight:bold}"
    "#tip{position:fixed;background:#ffe;border:1px solid #999;padding:4px;white-space:pre;display:none}"
    "#bar{margin:4px 0}#bar input{width:240px}#matched{margin-left:8px}"
    "</style></head><body><h3 id=\"title\"></h3><div id=\"summary\"></div><p>Widths: the new profile (removed "
    "stacks at their base width, hatched). Red: grown or added; blue: shrunk or removed; grey: unchanged. "
    "Click a frame to zoom into it.</p><div id=\"bar\"><input id=\"search\" placeholder=\"Search (regular "
    "expression)\"> <button id=\"reset\">Reset zoom</button><span id=\"matched\"></span></div>"
    "<div id=\"g\"></div><div id=\"tip\"></div><script>\nconst DIFF=";

static const char page_tail[] =
    ";\nconst fmt=(v)=>Number(v).toLocaleString('en-US',{maximumFractionDigits:4});\n"
    "const sign=(v)=>(v>=0?'+':'')+fmt(v);\n"
    "document.getElementById('title').textContent=DIFF.title;\n"
    "document.getElementById('summary').textContent=`base: ${DIFF.base} (${DIFF.baseSummary}) \\u00b7 new: "
    "${DIFF.next} (${DIFF.nextSummary}) \\u00b7 values in ${DIFF.unit}`;\n"
    "const g=document.getElementById('g'),tip=document.getElementById('tip');let depth=0;\n"
    "const rows=DIFF.frames.map(([left,width,d,name,base,next,rel])=>({left,width,d,name,base,next,rel}));\n"
    "const inside=(r,z)=>r.left>=z.left-1e-9&&r.left+r.width<=z.left+z.width+1e-9;\n"
    "for(const r of rows){depth=Math.max(depth,r.d+1);"
    "const e=document.createElement('div');r.e=e;e.className='f'+(r.next===0?' removed':'');"
    "const a=Math.min(1,Math.abs(r.rel));e.style.backgroundColor=r.rel>0?`rgb(255,${Math.round(230-180*a)},${Math.round(230-180*a)})`:"
    "r.rel<0?`rgb(${Math.round(230-180*a)},${Math.round(230-180*a)},255)`:'#ddd';"
    "e.style.top=(r.d*17)+'px';e.textContent=r.name;const delta=r.next-r.base;"
    "e.dataset.tip=`${r.name}\\nbase ${fmt(r.base)}  new ${fmt(r.next)}  delta ${sign(delta)} ${DIFF.unit}`+"
    "(r.base>0&&r.next>0?` (${sign(100*delta/r.base)}%)`:r.next===0?' (removed)':' (added)');"
    "e.onmousemove=(ev)=>{tip.textContent=e.dataset.tip;tip.style.display='block';tip.style.left=(ev.clientX+12)+'px';"
    "tip.style.top=(ev.clientY+12)+'px'};e.onmouseleave=()=>{tip.style.display='none'};"
    "e.onclick=()=>zoom(r.d===0&&zoomed===r?null:r);g.appendChild(e);}\n"
    "let zoomed=null;\n"
    "function zoom(z){zoomed=z;for(const r of rows){let left=r.left,width=r.width,shown=true;"
    "if(z){if(r.d>=z.d&&inside(r,z)){left=(r.left-z.left)/z.width*100;width=r.width/z.width*100;}"
    "else if(r.d<z.d&&inside(z,r)){left=0;width=100;}else shown=false;}"
    "r.e.style.left=left+'%';r.e.style.width=width+'%';r.e.style.display=shown?'':'none';}"
    "window.libprofDiff.zoomed=z?z.name:null;}\n"
    "window.libprofDiff={zoom:(name)=>zoom(rows.find((r)=>r.name===name)||null),zoomed:null};\n"
    "document.getElementById('reset').onclick=()=>zoom(null);\n"
    "const search=document.getElementById('search'),matched=document.getElementById('matched');\n"
    "search.oninput=()=>{const q=search.value;let test=null;"
    "if(q){try{const re=new RegExp(q);test=(n)=>re.test(n);}catch(e){test=(n)=>n.includes(q);}}"
    "let base=0,next=0,count=0;const outer=[];"
    "for(const r of rows){const m=!!test&&test(r.name);r.e.classList.toggle('match',m);if(!m)continue;count++;"
    "if(!outer.some((o)=>o.d<r.d&&inside(r,o))){outer.push(r);base+=r.base;next+=r.next;}}"
    "matched.textContent=q?`${count} frames match: base ${fmt(base)}, new ${fmt(next)}, delta ${sign(next-base)} ${DIFF.unit}`:'';};\n"
    "zoom(null);g.style.height=(depth*17)+'px';\n</script></body></html>\n";

int out_diff_write_html(const profile_diff *d, const out_diff_labels *l, FILE *out) {
    child_tree t;
    child_tree_init(&t, sizeof(diff_value));
    int rc = -1;
    if (build_tree(&t, d) == 0) {
        fputs(page_head, out);
        fputs("{\"title\":", out);
        json_out_string(out, l->title && l->title[0] ? l->title : "Differential profile");
        fputs(",\"base\":", out);
        json_out_string(out, l->base_name);
        fputs(",\"next\":", out);
        json_out_string(out, l->next_name);
        fputs(",\"baseSummary\":", out);
        json_out_string(out, l->base_summary);
        fputs(",\"nextSummary\":", out);
        json_out_string(out, l->next_summary);
        fputs(",\"unit\":", out);
        json_out_string(out, d->unit);
        fputs(",\"frames\":[\n", out);
        rc = write_nodes(&t, d, out);
        fputs("]}", out);
        fputs(page_tail, out);
        if (ferror(out)) rc = -1;
    }
    child_tree_free(&t);
    return rc;
}
