/*
 * out_html: the interactive HTML outputs, a flame graph and a call tree, written as one self-contained
 * page. The page (resources/flamegraph.html, embedded at build time) carries all its code and styles; this
 * writer only inserts the profile: a merged call tree with deduplicated frame names, so the page stays
 * smaller than the collapsed text of the same profile. Called by output; pure function of its input.
 */
#ifndef LIBPROF_OUT_HTML_H
#define LIBPROF_OUT_HTML_H

#include "profile.h"

#include <stdbool.h>
#include <stdio.h>

typedef struct {
    bool tree;        /* open on the call tree instead of the flame graph */
    double minwidth;  /* percent of the total: narrower frames (and all below them) are not written */
    bool reverse;     /* open with stacks merged from the leaf */
    bool inverted;    /* open the flame graph as an icicle */
    const char *highlight;  /* a regular expression the page opens searched for, or NULL */
} out_html_options;

/* Returns 0, or -1 when out of memory or writing failed. */
int out_html_write(const profile *p, FILE *out, const out_html_options *opt);

/* More of the page's data beside the tree (the heatmap's samples in time): 'write' adds JSON members
 * (",\"key\":...") after the tree, knowing the tree that was written: written[node] is the position of
 * calltree node 'node' in the page's preorder, UINT32_MAX for a node not written (narrower than minwidth). */
typedef struct calltree calltree;
typedef struct {
    int (*write)(const profile *p, const calltree *t, const uint32_t *written, FILE *out, void *arg);
    void *arg;
} out_html_extra;

/* A number as the page's data spells it: base 36, digits then lower-case letters. */
void out_html_base36(FILE *out, uint64_t v);

int out_html_write_extra(const profile *p, FILE *out, const out_html_options *opt, const out_html_extra *extra);

#endif
