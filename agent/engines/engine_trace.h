/*
 * engine_trace: the JVMTI side of the trace engine (engine_trace in engine.h), called by the session's JVM
 * callbacks (session/jvm_callbacks.c). Never from signal handlers.
 */
#ifndef LIBPROF_ENGINE_TRACE_H
#define LIBPROF_ENGINE_TRACE_H

#include <jni.h>
#include <jvmti.h>
#include <stdbool.h>

/* ClassFileLoadHook: rewrites the traced methods of a class being loaded or retransformed; true when it
 * handed new bytes over. */
bool engine_trace_class_file_load_hook(jvmtiEnv *jvmti, const char *name, jint class_data_len,
                                       const unsigned char *class_data, jint *new_class_data_len,
                                       unsigned char **new_class_data);

/* ClassPrepare: keeps modules defined since the start able to read the helper class. */
void engine_trace_class_prepare(JNIEnv *jni);

/* VMDeath: no restoring of classes at stop. */
void engine_trace_vm_death(void);

#endif
