/*
 * dump: turns the live trace table into a named profile: Java frames through JVMTI, markers and threads
 * by name, include/exclude applied, identical named stacks merged. Runs on a thread attached to the JVM.
 */
#ifndef LIBPROF_DUMP_H
#define LIBPROF_DUMP_H

#include "options.h"
#include "profile.h"
#include "traces.h"

/* Fills 'p' (initialised by the caller); the caller sets p->meta. Returns -1 when out of memory. */
int dump_build_profile(trace_table *table, const prof_options *o, profile *p);

#endif
