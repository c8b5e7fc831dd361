/*
 * span_parts: how many samples of each stack were taken in thread spans of each tag (from the profile's
 * ticks, which say the span each sample was in), for the writers that label samples (pprof's "span"
 * label). A tag stands for all spans of that name: its first span's index. Pure function of the profile.
 */
#ifndef LIBPROF_SPAN_PARTS_H
#define LIBPROF_SPAN_PARTS_H

#include "profile.h"

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint32_t stack;    /* index into p->stacks */
    uint32_t span;     /* index into p->spans of the first span with this tag */
    uint64_t samples;
} span_part;

/* The parts, sorted by stack then span; *n = 0 (and *parts NULL) when no sample was in a span. Caller
 * frees. -1 when out of memory. */
int span_parts_build(const profile *p, span_part **parts, size_t *n);

#endif
