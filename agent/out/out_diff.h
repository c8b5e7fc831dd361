/*
 * out_diff: a differential profile (profile_diff.h) written as text (every stack with its base and new
 * values, the change and its sign, largest change first) or as an HTML flame graph of the new profile
 * coloured by change: red grown or added, blue shrunk, hatched blue for what was removed (drawn at its
 * base width so that it stays visible); each frame's tooltip gives its base, new and delta values.
 */
#ifndef LIBPROF_OUT_DIFF_H
#define LIBPROF_OUT_DIFF_H

#include "profile_diff.h"

#include <stdio.h>

typedef struct {
    const char *base_name, *next_name;       /* the inputs, for the header */
    const char *base_summary, *next_summary; /* how complete each input is (completeness.h) */
    const char *title;
} out_diff_labels;

int out_diff_write_text(const profile_diff *d, const out_diff_labels *l, FILE *out);
int out_diff_write_html(const profile_diff *d, const out_diff_labels *l, FILE *out);

#endif
