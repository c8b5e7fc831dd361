/*
 * sample_cost_reset: the set-up half of sample_cost.h: clearing the histograms and measuring the clock
 * (sample_cost_reset.c). Outside signal handlers.
 */
#ifndef LIBPROF_SAMPLE_COST_RESET_H
#define LIBPROF_SAMPLE_COST_RESET_H

#include "sample_cost.h"

/* Clears the histograms and measures the clock's rate (sleeps 5 ms: call outside handlers). */
void sample_cost_reset(void);   /* sample_cost_reset.c */

#endif
