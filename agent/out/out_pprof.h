/*
 * out_pprof: the pprof format (gzipped profile.proto, resources/proto/profile.proto), as go tool pprof,
 * Pyroscope, Parca and Grafana read it. Sample types: samples/count and the weight in its unit (cpu/
 * nanoseconds, alloc/bytes...); one function per frame name; a location per frame, where inlined frames
 * (named with "_[i]" by the 'ann' option) become lines of their caller's location; threads as the sample
 * label "thread" instead of a root frame; how complete the profile is in the comments.
 * Encoded by libprotobuf-c from protoc-c's generated code, compressed by zlib.
 */
#ifndef LIBPROF_OUT_PPROF_H
#define LIBPROF_OUT_PPROF_H

#include "profile.h"

#include <stdio.h>

/* Returns 0, or -1 when out of memory or writing failed. */
int out_pprof_write(const profile *p, FILE *out);

#endif
