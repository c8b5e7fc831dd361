/*
 * profile_timeline: the time order the formats with a timeline (Chrome .cpuprofile, Firefox) need. A
 * profile dumped by the agent has merged stacks and no timestamps, so the order is synthesised,
 * deterministically: stacks in the profile's order, each repeated once per sample, each sample lasting
 * its share of the stack's CPU time (the weight in ns divided by the samples), else the sampling
 * interval, else 1 ms (counted events). The figures per stack are exact; the order in time is not real.
 */
#ifndef LIBPROF_PROFILE_TIMELINE_H
#define LIBPROF_PROFILE_TIMELINE_H

#include "profile.h"

#include <string.h>

static inline uint64_t profile_timeline_sample_ns(const profile *p, const profile_stack *s) {
    bool ns = strcmp(p->meta.units, "ns") == 0 || !p->meta.units[0];
    if (ns && p->meta.total && s->samples && s->weight >= s->samples) return s->weight / s->samples;
    if (ns && p->meta.interval_ns) return p->meta.interval_ns;
    return 1000000;
}

#endif
