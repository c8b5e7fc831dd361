/*
 * jvm_threads: the current names of the JVM's threads. A thread's name is recorded when it starts, but
 * Thread.setName may change it at any time, so each Java thread is kept here as a weak reference to its
 * java.lang.Thread (by OS thread id) and asked for its name again whenever a profile or a JFR chunk is
 * written, and one last time when it ends. Ended threads keep their last name (threads.c). Threads JVMTI
 * hides (compiler threads) are known by their OS names, which the kernel cuts to 15 characters
 * ("C2 CompilerThre"); those are completed from the JVM's thread dump. Called from JVMTI callbacks and dump
 * paths, never from signal handlers.
 */
#ifndef LIBPROF_JVM_THREADS_H
#define LIBPROF_JVM_THREADS_H

#include <jni.h>
#include <jvmti.h>

/* Thread 'thread' runs as OS thread tid: records its name now and keeps it for later refreshes. */
void jvm_threads_track(jvmtiEnv *env, JNIEnv *jni, jthread thread, int tid);
/* Thread tid ends: records its last name and lets it go. */
void jvm_threads_untrack(jvmtiEnv *env, JNIEnv *jni, jthread thread, int tid);
/* Records the current name of every tracked thread. The calling thread must be attached to the VM;
 * does nothing otherwise. */
void jvm_threads_refresh_names(void);

#endif
