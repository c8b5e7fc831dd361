/*
 * codeblob_init: the set-up half of codeblob.h: reading and checking the VM structure entries the code-
 * blob walker needs (codeblob_init.c). Outside signal handlers.
 */
#ifndef LIBPROF_CODEBLOB_INIT_H
#define LIBPROF_CODEBLOB_INIT_H

#include "codeblob.h"

#include <stddef.h>

/* Reads and checks every structure entry the walker needs; on failure names the first one missing.
 * Registers the code heaps with safe_read. Call after the VM initialised its code cache. */
int codeblob_init(char *err, size_t errlen);   /* codeblob_init.c */

#endif
