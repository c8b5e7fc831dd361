/*
 * refresher: a small background thread, alive while profiling with native stacks, that re-reads the map
 * of native code when a stack walk met code from a library loaded since the last refresh (System.load,
 * dlopen). Signal handlers cannot do that work; the thread does it within about 50 ms, so the unwind
 * tables of a new library serve the walks soon after it appears.
 */
#ifndef LIBPROF_REFRESHER_H
#define LIBPROF_REFRESHER_H

/* Starts the thread (once; later calls do nothing while it runs). Returns -1 when it cannot start. */
int refresher_start(void);
/* Asks the thread to end and waits for it. */
void refresher_stop(void);

#endif
