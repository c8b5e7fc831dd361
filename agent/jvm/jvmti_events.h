/*
 * jvmti_events: the JVMTI side of the engines that record in JVMTI callbacks instead of signal handlers
 * (allocation and lock profiling), called by jvm.c's callbacks, and what they share: a capability added
 * when the session starts, an event switched on and off, the class of an object as a class_names id.
 * Never from signal handlers.
 */
#ifndef LIBPROF_JVMTI_EVENTS_H
#define LIBPROF_JVMTI_EVENTS_H

#include <jni.h>
#include <jvmti.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* SampledObjectAlloc (engine_alloc.c). */
void JNICALL engine_alloc_on_sample(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jobject object, jclass klass,
                                    jlong size);
/* MonitorContendedEnter / MonitorContendedEntered (engine_lock.c). */
void JNICALL engine_lock_on_contended_enter(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jobject object);
void JNICALL engine_lock_on_contended_entered(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jobject object);

/* 'what' names the option for messages ("alloc"). Adds the capability the 'has' / 'want' pair selects
 * (a jvmtiCapabilities field's offset would not do: they are bit fields): 0, or -1 with the reason. */
typedef enum { JVMTI_CAP_SAMPLED_ALLOC, JVMTI_CAP_MONITOR_EVENTS } jvmti_events_capability;
int jvmti_events_add_capability(jvmti_events_capability cap, const char *what, char *err, size_t errlen);

/* Gives the capability back (allocation sampling: the JVM lets one agent hold it at a time, so another
 * agent, or another copy of the library, can sample once this one stops). */
void jvmti_events_relinquish_capability(jvmti_events_capability cap);

/* Switches a JVMTI event on or off for all threads: 0, or -1 with the reason. */
int jvmti_events_enable(jvmtiEvent event, bool on, const char *what, char *err, size_t errlen);

/* The class_names id of klass (0 when JVMTI cannot say). */
uint32_t jvmti_events_class_id(jvmtiEnv *jvmti, jclass klass);

#endif
