/*
 * window_hooks: what opens and closes the sampling windows of begin=/end= and ttsp (sample_window.h).
 *
 * begin=F,end=G: the calls other objects make to F and G through their import tables (the GOT slots
 * native_hooks_install patches, in objects loaded later too) reach a small thunk first that opens or
 * closes the window, keeps every argument register, and jumps on to the function. No code is written:
 * a call that does not go through an import slot (a function called inside its own library, or through a
 * pointer taken before the start) opens nothing. F and G must be loaded when profiling starts.
 *
 * ttsp: the window is HotSpot's safepoint synchronisation, read from its SafepointSynchronize::_state and
 * _safepoint_counter, found by their symbols in libjvm.so (its .symtab, or its separate debug file).
 *
 * Not signal-safe; called by the profiler at start and stop.
 */
#ifndef LIBPROF_WINDOW_HOOKS_H
#define LIBPROF_WINDOW_HOOKS_H

#include "options.h"

#include <stddef.h>

/* Configures the windows o asks for (none: every sample is taken) and installs their hooks. -1 with the
 * reason in err; then no window is on. */
int window_hooks_start(const prof_options *o, char *err, size_t errlen);

/* Takes the hooks out; every sample is taken again. */
void window_hooks_stop(void);

#endif
