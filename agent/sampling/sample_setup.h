/*
 * sample_setup: the set-up half of sample.h: configuring the sampling code, turning it on and off, its
 * counters (sample_setup.c). Outside signal handlers.
 */
#ifndef LIBPROF_SAMPLE_SETUP_H
#define LIBPROF_SAMPLE_SETUP_H

#include "sample.h"

#include <stdbool.h>

/* Outside signal handlers (sample_setup.c). Allocates the stack buffers for cfg->max_depth and takes the
 * configuration; call while inactive. Returns -1 on allocation failure. */
int sample_configure(const sample_config *cfg);

/* Starts a new session generation (per-thread CPU clocks restart) and clears the counters. */
void sample_reset_counters(void);
void sample_set_active(bool active);
/* Waits (bounded) until no handler is inside the sampling code. Returns false on timeout. */
bool sample_wait_idle(int timeout_ms);
void sample_get_counters(sample_counters *out);
/* Reads the counters and clears them at once, each by one atomic exchange, while sampling goes on: every
 * count lands in exactly one reading (loop= periods that do not stop the engines). */
void sample_take_counters(sample_counters *out);
/* Handler invocations since the process began, whatever loop= periods took: only differences mean anything
 * (sample_reset_counters clears the current count). */
uint64_t sample_signals_total(void);

const char *sample_drop_reason_name(drop_reason r);

#endif
