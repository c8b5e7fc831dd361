/*
 * no_jvm: a session in a process with no Java VM (a native program profiled through LD_PRELOAD or the C
 * API). The engines that need none run as they do in a JVM; what only a JVM can give is refused by name
 * before anything starts; and since no JVM reports the threads the program creates, a small thread lists
 * them (/proc/self/task) for the engines that arm each thread. Used by the profiler alone.
 */
#ifndef LIBPROF_NO_JVM_H
#define LIBPROF_NO_JVM_H

#include "options.h"

#include <stddef.h>

/* 0 when every request of 'o' can be served without a JVM; else -1 with the first one that cannot, named,
 * in err. */
int no_jvm_refuse_java_only(const prof_options *o, char *err, size_t errlen);

/* The threads alive now, taken as known: called before the engines start, which find them themselves, so
 * that a thread created in between is armed by one or the other. */
void no_jvm_threads_note_current(void);
/* Starts listing the process's threads every few milliseconds: each thread new since the last listing goes
 * to started, each one gone to ended. 0, or -1 when the thread cannot start. */
int no_jvm_threads_start(void (*started)(int tid), void (*ended)(int tid));
void no_jvm_threads_stop(void);

#endif
