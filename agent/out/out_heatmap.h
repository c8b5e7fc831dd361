/*
 * out_heatmap: the heatmap page, a strip of sample density over time above the flame graph page of
 * out_html; selecting a range of the strip shows the flame graph of the samples in it. Needs the profile's
 * sample times (profile ticks, sorted); without them the strip is empty and the page is the flame graph of
 * the whole profile. Called by output; pure function of its input.
 */
#ifndef LIBPROF_OUT_HEATMAP_H
#define LIBPROF_OUT_HEATMAP_H

#include "out_html.h"
#include "profile.h"

#include <stdio.h>

/* The finest time resolution of the page: its smallest cell. */
#define OUT_HEATMAP_CELL_MS 20

/* Returns 0, or -1 when out of memory or writing failed. */
int out_heatmap_write(const profile *p, FILE *out, const out_html_options *opt);

#endif
