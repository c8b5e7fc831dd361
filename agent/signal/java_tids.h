/*
 * [signal-safe] java_tids: the set of OS thread ids the JVM reported as Java threads (ThreadStart, and
 * the main thread at VMInit). The signal path asks it whether a thread that AsyncGetCallTrace could not walk is an application
 * thread (a real failure) or a JVM-internal one such as a JIT compiler thread (not a failure: it simply
 * runs no Java). A bitmap indexed by tid, so lookups are one load.
 */
#ifndef LIBPROF_JAVA_TIDS_H
#define LIBPROF_JAVA_TIDS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Its signal-safe half: the bits to use, one per thread id below count. */
void java_tids_use(_Atomic uint64_t *bits, size_t count);
void java_tids_add(int tid);
void java_tids_remove(int tid);
/* Async-signal-safe. False for unknown or out-of-range tids. */
bool java_tids_contains(int tid);

#endif
