/*
 * threads: OS thread id -> thread name, for the [name tid=N] root frames. Java threads are recorded by
 * the JVMTI ThreadStart callback (their Java name); any other thread is named from /proc/self/task/N/comm.
 * Names stay after a thread ends so its samples are still named at dump time, for the latest
 * THREADS_ENDED_KEPT threads to end: a service that keeps creating threads must not grow without bound
 * (thread ids cycle through kernel.pid_max, up to 4M). Not for signal handlers.
 */
#ifndef LIBPROF_THREADS_H
#define LIBPROF_THREADS_H

#include <stdbool.h>
#include <stddef.h>

#define THREADS_ENDED_KEPT 65536

void threads_set_name(int tid, const char *name);
/* Records the comm name of every live thread not named yet (threads that existed before us). */
void threads_snapshot_os_names(void);
/* Records tid's comm name now if it has no name yet: a thread seen while it lives keeps its name after it
 * ends. */
void threads_remember_os_name(int tid);
/* True when some thread is known only by an OS name that may have been cut (15 characters, the kernel's
 * limit), such as "C2 CompilerThre" for the JVM's "C2 CompilerThread0". */
bool threads_has_cut_os_names(void);
/* The full name of such a thread, from the JVM: replaces its OS name when that is a 15-character prefix
 * of 'full'. Returns true when it did. */
bool threads_complete_os_name(int tid, const char *full);
/* Every thread named so far was looked up: the ones still cut are not the JVM's (native threads), so
 * threads_has_cut_os_names stays false until a new thread is named from the OS. */
void threads_settle_os_names(void);

/* Copies the name of tid into buf; false when it has none (buf then holds "tid-N"). */
bool threads_get_name(int tid, char *buf, size_t len);

/* Thread tid has ended. Its name and Java id stay until THREADS_ENDED_KEPT more threads have ended, then
 * are forgotten unless still_alive(tid) says the id now belongs to a live thread. */
void threads_ended(int tid, bool (*still_alive)(int tid));

/* Java thread ids (java.lang.Thread.getId()) of threads the JVM reported; 0 for any other thread. */
void threads_set_java_id(int tid, long long java_id);
long long threads_get_java_id(int tid);

#endif
