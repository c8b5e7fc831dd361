/*
 * out_text: the human-readable report: a header (engine, interval, duration, totals, samples lost by
 * reason, failure markers), the hottest stacks with their share, and a flat profile of the leaf frames.
 */
#ifndef LIBPROF_OUT_TEXT_H
#define LIBPROF_OUT_TEXT_H

#include "profile.h"

#include <stdio.h>

/* traces / flat: how many entries of each section; 0 = leave the section out. */
int out_text_write(const profile *p, FILE *out, int traces, int flat);

#endif
