/*
 * codeheap_init: the set-up half of codeheap.h: the code cache's bounds, read once it exists
 * (codeheap_init.c). Outside signal handlers.
 */
#ifndef LIBPROF_CODEHEAP_INIT_H
#define LIBPROF_CODEHEAP_INIT_H

#include "codeheap.h"

/* Reads the bounds once the code cache exists (VMInit or attach). Returns -1 with a reason. */
int codeheap_init(char *err, unsigned long errlen);   /* codeheap_init.c */

#endif
