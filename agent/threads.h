/*
 * threads: OS thread id -> thread name, for the [name tid=N] root frames. Java threads are recorded by
 * the JVMTI ThreadStart callback (their Java name); any other thread is named from /proc/self/task/N/comm.
 * Names stay after a thread ends so its samples are still named at dump time. Not for signal handlers.
 */
#ifndef LIBPROF_THREADS_H
#define LIBPROF_THREADS_H

#include <stddef.h>

void threads_set_name(int tid, const char *name);
/* Records the comm name of every live thread not named yet (threads that existed before us). */
void threads_snapshot_os_names(void);
/* Copies the name of tid into buf ("tid-N" style fallback when unknown). */
void threads_get_name(int tid, char *buf, size_t len);

/* Java thread ids (java.lang.Thread.getId()) of threads the JVM reported; 0 for any other thread. */
void threads_set_java_id(int tid, long long java_id);
long long threads_get_java_id(int tid);

#endif
