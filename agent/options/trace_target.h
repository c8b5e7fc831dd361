/*
 * trace_target: one `trace=` value, async-profiler's syntax: a method target (method_target.h: pkg.Class.method,
 * an optional JVM descriptor, '*' at the end of the class or method name) and an optional threshold after a
 * ':' (`pkg.Class.method:100ms`; ns, us, ms, s; a bare number is ns; none: every call). Pure functions:
 * the option parser checks each value with it, the trace engine reads the session's values back.
 */
#ifndef LIBPROF_TRACE_TARGET_H
#define LIBPROF_TRACE_TARGET_H

#include "method_target.h"

#include <stddef.h>
#include <stdint.h>

typedef struct {
    method_target target;
    uint64_t threshold_ns;   /* calls taking at least this long are recorded; 0: every call */
} trace_target;

#define TRACE_TARGET_ACCEPTED \
    "accepted: pkg.Class.method, pkg.Class.method(JVM descriptor such as (Ljava/lang/String;)V), '*' at the " \
    "end of the class or method name (pkg.Class.*, *.*), each with an optional :threshold (:100ms; ns, us, " \
    "ms, s; a bare number is ns)"

/* Parses 'text'. Returns 0, or -1 with one line in err naming the value and what is accepted. */
int trace_target_parse(const char *text, trace_target *t, char *err, size_t errlen);

#endif
