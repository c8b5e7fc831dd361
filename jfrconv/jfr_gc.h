/*
 * jfr_gc: the garbage collections a recording holds (the JDK's jdk.GarbageCollection events: when, how long,
 * which collector, why), as spans of the profile, which the Firefox format shows as interval markers on its
 * timeline. Recordings without the event (libprof's own, or the JDK's with GC events disabled) add none.
 * Used by jfr_convert for the timeline formats.
 */
#ifndef LIBPROF_JFR_GC_H
#define LIBPROF_JFR_GC_H

#include "jfr_rchunk.h"
#include "profile.h"

#include <stdint.h>

/* Adds a span "GC: <collector> (<cause>)" for each collection of the chunk that overlaps [from_ns, to_ns].
 * Returns how many, or -1 on a malformed event (the chunk's error set) or when out of memory. */
int jfr_gc_spans(jfr_rchunk *ch, profile *p, uint64_t from_ns, uint64_t to_ns);

#endif
