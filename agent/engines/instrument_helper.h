/*
 * instrument_helper: the Java class that instrumented methods call (java/libprof/Instrument.java), defined
 * into the boot loader from the bytes embedded in libprof.so, its native method bound to the agent, and the
 * module readability that lets code in named modules (java.base...) call it. Used by engine_instrument
 * only, from ordinary Java threads (never from signal handlers).
 */
#ifndef LIBPROF_INSTRUMENT_HELPER_H
#define LIBPROF_INSTRUMENT_HELPER_H

#include <jni.h>
#include <jvmti.h>
#include <stdbool.h>
#include <stddef.h>

/* Internal names the rewriter inserts: invokestatic INSTRUMENT_HELPER_CLASS.INSTRUMENT_HELPER_METHOD()V */
#define INSTRUMENT_HELPER_CLASS "libprof/Instrument"
#define INSTRUMENT_HELPER_METHOD "recordSample"

/* Defines the helper class (once per process) and binds its native method to 'native'. Returns 0, or -1
 * with the reason in err. */
int instrument_helper_define(JNIEnv *jni, jvmtiEnv *jvmti, void(JNICALL *native)(JNIEnv *, jclass), char *err,
                             size_t errlen);

/* Binds the helper's parkEdge()V to 'native' (the class defined first if needed). 0, or -1 with the reason. */
int instrument_helper_bind_park(JNIEnv *jni, jvmtiEnv *jvmti, void(JNICALL *native)(JNIEnv *, jclass), char *err,
                                size_t errlen);
#define INSTRUMENT_HELPER_PARK_METHOD "parkEdge"

/* Binds the helper's traceEnter(I)V and traceExit(I)V, the calls traced methods make (classfile_trace). 0,
 * or -1 with the reason. */
int instrument_helper_bind_trace(JNIEnv *jni, jvmtiEnv *jvmti, void(JNICALL *enter)(JNIEnv *, jclass, jint),
                                 void(JNICALL *exit)(JNIEnv *, jclass, jint), char *err, size_t errlen);
#define INSTRUMENT_HELPER_TRACE_ENTER "traceEnter"
#define INSTRUMENT_HELPER_TRACE_EXIT "traceExit"

/* Makes every named module read the helper's module (the boot loader's unnamed module), so instrumented
 * classes of named modules may link to it. Cheap when no module was added since the last call. Java 9+;
 * does nothing on older JVMs or before instrument_helper_define succeeded. */
void instrument_helper_open_modules(JNIEnv *jni, jvmtiEnv *jvmti);

#endif
