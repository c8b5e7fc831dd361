/*
 * jvm_callbacks: what the JVM's events mean to a profiling session, handed to jvm_init as its listeners:
 * thread and VM life to the profiler, class preparation and class file loading to the instrumentation
 * engine, sampled allocations and contended monitors to the alloc and lock engines, VM death to every
 * party that must finish first. The entry points (Agent_OnLoad/OnAttach, the Java API) start the JVM
 * layer through here.
 */
#ifndef LIBPROF_JVM_CALLBACKS_H
#define LIBPROF_JVM_CALLBACKS_H

#include <jni.h>
#include <stdbool.h>
#include <stddef.h>

/* jvm_init with the session's listeners. Returns -1 with a message in err. */
int jvm_callbacks_init(JavaVM *vm, bool live, char *err, size_t errlen);

#endif
