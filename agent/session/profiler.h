/*
 * profiler: the profiling session. start / resume / stop / dump / status / version, the engine in use,
 * the trace storage, the timeout, and the dump when the VM dies. One lock serialises sessions; thread
 * callbacks never take it, so a long dump never delays thread creation in the application.
 */
#ifndef LIBPROF_PROFILER_H
#define LIBPROF_PROFILER_H

#include "options.h"

#include <stdbool.h>
#include <stddef.h>


/* Runs the action in 'o'. Returns 0, or -1 with one line in err for the user. */
int profiler_execute(const prof_options *o, char *err, size_t errlen);

/* Options given at JVM start-up: their action runs when the VM has started (VMInit). */
void profiler_defer_until_vm_init(const prof_options *o);

/* Whether a session is running now. */
bool profiler_running(void);

void profiler_on_vm_init(void);
void profiler_on_vm_death(void);
void profiler_on_thread_start(int tid);
void profiler_on_thread_end(int tid);

#endif
