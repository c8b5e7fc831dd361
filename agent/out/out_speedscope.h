/*
 * out_speedscope: speedscope's JSON file format (https://www.speedscope.app/file-format-schema.json): the
 * frames shared, one "sampled" profile per thread (one for all threads without thread frames), each merged
 * stack once with its weight in its real unit (nanoseconds of CPU, bytes) or, for counted events, its
 * sample count. The file's name says how complete the profile is; "libprof" carries the figures.
 */
#ifndef LIBPROF_OUT_SPEEDSCOPE_H
#define LIBPROF_OUT_SPEEDSCOPE_H

#include "profile.h"

#include <stdio.h>

int out_speedscope_write(const profile *p, FILE *out);

#endif
