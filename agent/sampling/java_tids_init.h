/*
 * java_tids_init: the set-up half of java_tids.h: sizing the thread-id bitmap (java_tids_init.c). Outside
 * signal handlers.
 */
#ifndef LIBPROF_JAVA_TIDS_INIT_H
#define LIBPROF_JAVA_TIDS_INIT_H

#include "java_tids.h"

/* Sizes the bitmap from pid_max. Call once, before any thread is added. Returns -1 on failure. */
int java_tids_init(void);   /* java_tids_init.c */

#endif
