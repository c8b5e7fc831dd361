/*
 * out_gecko: the Firefox Profiler's Gecko profile format (the JSON Firefox itself writes, which
 * profiler.firefox.com imports): one thread per track on one timeline, samples with their time (ms) and
 * their CPU use (threadCPUDelta, ns), stackTable/frameTable/stringTable per thread, frames categorised
 * Java, native, kernel or libprof marker and spelled "name (java)", "symbol (library)" ('lib' option),
 * "name (native)", "name (kernel)", "name (libprof)"; markers for the dropped samples and failed walks
 * (on the first thread). Time order is synthesised for the agent's merged stacks (profile_timeline.h); a
 * last sample without a stack closes each thread's last sample.
 */
#ifndef LIBPROF_OUT_GECKO_H
#define LIBPROF_OUT_GECKO_H

#include "profile.h"

#include <stdio.h>

int out_gecko_write(const profile *p, FILE *out);

#endif
