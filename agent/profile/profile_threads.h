/*
 * profile_threads: a profile's stacks grouped by thread, for the formats that show one profile or track
 * per thread (speedscope, Firefox). The thread of a stack is its root frame when that is a thread frame
 * ('threads' option, or jfrconv -t); without thread frames every stack belongs to one group,
 * "all threads" (also the one group of a profile without samples).
 */
#ifndef LIBPROF_PROFILE_THREADS_H
#define LIBPROF_PROFILE_THREADS_H

#include "profile.h"

#include <stdint.h>

#define PROFILE_THREADS_ALL UINT32_MAX

typedef struct {
    uint32_t *of_stack;   /* group index of each stack */
    uint32_t *name;       /* each group's thread frame name id, or PROFILE_THREADS_ALL */
    uint32_t count;
} profile_threads;

/* -1 when out of memory. */
int profile_threads_build(const profile *p, profile_threads *t);
void profile_threads_free(profile_threads *t);

/* The first frame of stack s below its thread frame (0 without one). */
uint32_t profile_threads_first_frame(const profile *p, const profile_stack *s);

/* The group's display name: the thread frame's name, or "all threads". */
const char *profile_threads_name(const profile *p, const profile_threads *t, uint32_t group);

#endif
