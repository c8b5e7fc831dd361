/*
 * signal_watch: while profiling runs, a thread checks that the engine's signals still reach us and says
 * so when they do not (another party took the signal or the timer): it moves the engine to a free signal
 * where the engine allows, warns once, and leaves a note for the profile's header.
 */
#ifndef LIBPROF_SIGNAL_WATCH_H
#define LIBPROF_SIGNAL_WATCH_H

#include "engine.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Starts watching engine e sampling at interval_ns; clears the previous session's note unless 'resume'.
 * 0 or -1. */
int signal_watch_start(const engine *e, uint64_t interval_ns, bool resume);

/* Stops the watching thread (before the engine stops). */
void signal_watch_stop(void);

/* Copies what happened to the signal this session ("" when nothing did) into out. */
void signal_watch_note(char *out, size_t len);

#endif
