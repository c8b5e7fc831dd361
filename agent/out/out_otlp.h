/*
 * out_otlp: OpenTelemetry's profiles signal (resources/proto/otlp_profiles.proto), a ProfilesData message
 * as async-profiler's `otlp` output writes it, uncompressed: one resource, one scope, one Profile with one
 * sample type (samples/count, or with 'total' the weight in its unit) named after the engine, the period
 * and its start and duration; one Sample per stack, its value and, with thread frames, the thread's name
 * as the attribute "thread.name". The dictionary has one function per frame name, one location per frame
 * (function and source line), one stack per sample with its locations leaf first; every table's entry 0 is
 * the zero value the schema asks for.
 */
#ifndef LIBPROF_OUT_OTLP_H
#define LIBPROF_OUT_OTLP_H

#include "profile.h"

#include <stdio.h>

/* Returns 0, or -1 when out of memory or writing failed. */
int out_otlp_write(const profile *p, FILE *out);

/* The sample type the profile's samples have (meta.sample_kind, else after the engine). */
const char *out_otlp_sample_type(const profile *p);

#endif
