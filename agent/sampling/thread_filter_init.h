/*
 * thread_filter_init: the set-up half of thread_filter.h: mapping the thread-id bitmap (thread_filter_init.c).
 * Outside signal handlers.
 */
#ifndef LIBPROF_THREAD_FILTER_INIT_H
#define LIBPROF_THREAD_FILTER_INIT_H

#include "thread_filter.h"

/* Sizes the bitmap from pid_max, once. -1 when it cannot be mapped. */
int thread_filter_init(void);   /* thread_filter_init.c */

#endif
