/*
 * perf_hooks_init: the set-up half of perf_hooks.h: the descriptor table's reservation and waiting for
 * handlers (perf_hooks_init.c). Outside signal handlers.
 */
#ifndef LIBPROF_PERF_HOOKS_INIT_H
#define LIBPROF_PERF_HOOKS_INIT_H

#include "perf_hooks.h"

#include <stddef.h>

/* Reserves the descriptor table once per process (handlers may read it at any time). -1 on failure. */
int perf_hooks_init(void);
/* Descriptors the table can hold: a larger one cannot be published. */
size_t perf_hooks_capacity(void);

/* Waits until no handler is inside the hooks, after an unpublish. */
void perf_hooks_wait_idle(void);

#endif
