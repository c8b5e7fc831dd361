/*
 * out_collapsed: the collapsed-stacks format (Brendan Gregg's, as async-profiler writes it): one line per
 * distinct stack, frames root first separated by ';', then a space and the count (the weight with 'total').
 * Samples dropped without a stack follow as one "[dropped REASON] N" line per reason.
 */
#ifndef LIBPROF_OUT_COLLAPSED_H
#define LIBPROF_OUT_COLLAPSED_H

#include "profile.h"

#include <stdio.h>

/* Returns 0, or -1 when writing failed. */
int out_collapsed_write(const profile *p, FILE *out);

#endif
