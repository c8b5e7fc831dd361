/*
 * sample_ring_create: the set-up half of sample_ring.h: mapping and unmapping a ring
 * (sample_ring_create.c), only while no handler can use it.
 */
#ifndef LIBPROF_SAMPLE_RING_CREATE_H
#define LIBPROF_SAMPLE_RING_CREATE_H

#include "sample_ring.h"

#include <stddef.h>

/* 'capacity' is rounded up to a power of two. NULL when the memory cannot be mapped. */
sample_ring *sample_ring_create(size_t capacity);   /* sample_ring_create.c */
void sample_ring_destroy(sample_ring *r);

#endif
