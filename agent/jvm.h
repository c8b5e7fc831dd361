/*
 * jvm: everything the agent asks of the JVM through JVMTI: the environment and its callbacks (ClassLoad,
 * ClassPrepare -> jmethodID preallocation, ThreadStart/End, VMInit, VMDeath), AsyncGetCallTrace found in
 * libjvm.so at run time, and method names for the dump. Callbacks are forwarded to the profiler.
 */
#ifndef LIBPROF_JVM_H
#define LIBPROF_JVM_H

#include "asgct.h"
#include "names.h"

#include <jni.h>
#include <jvmti.h>
#include <stdbool.h>
#include <stddef.h>

/* Once per process; later calls return 0 at once. 'live' = loaded into a running JVM (attach): classes
 * already loaded get their jmethodIDs now. Returns -1 with a message in err. */
int jvm_init(JavaVM *vm, bool live, char *err, size_t errlen);

JavaVM *jvm_vm(void);
jvmtiEnv *jvm_jvmti(void);
asgct_fn jvm_asgct(void);
/* True once the VM has finished starting (VMInit seen, or loaded into a live VM). */
bool jvm_is_live(void);
/* True when loaded at start-up: then java_tids holds every Java thread, and a thread outside it is a
 * JVM-internal thread (compiler, GC, VM thread). */
bool jvm_tracks_all_java_threads(void);

/* Writes the method's frame name. Returns -1 when the method is no longer valid (class unloaded). */
int jvm_method_name(jmethodID method, names_style style, char *buf, size_t len);

/* Attaches the calling native thread to the VM (as a daemon) so it may call JVMTI; NULL if it cannot. */
JNIEnv *jvm_attach_current_thread(void);
void jvm_detach_current_thread(void);

#endif
