/*
 * engine_instrument: the JVMTI side of the instrumentation engine (engine_instrument in engine.h), called by
 * jvm.c's event callbacks. Never from signal handlers.
 */
#ifndef LIBPROF_ENGINE_INSTRUMENT_H
#define LIBPROF_ENGINE_INSTRUMENT_H

#include <jni.h>
#include <jvmti.h>
#include <stdbool.h>
#include <stddef.h>

/* ClassFileLoadHook: rewrites the selected methods of a class being loaded or retransformed. */
void JNICALL engine_instrument_class_file_load_hook(jvmtiEnv *jvmti, JNIEnv *jni, jclass class_being_redefined,
                                                    jobject loader, const char *name, jobject protection_domain,
                                                    jint class_data_len, const unsigned char *class_data,
                                                    jint *new_class_data_len, unsigned char **new_class_data);

/* ClassPrepare: keeps modules defined since the start able to read the helper class. */
void engine_instrument_class_prepare(JNIEnv *jni);

/* The class retransformation capabilities, added when missing: 0, or -1 with the reason ('what' names the
 * option for the message). */
int engine_instrument_capabilities(const char *what, char *err, size_t errlen);

/* Retransforms every loaded, modifiable class 'wants' selects (internal names; the helper never): with a
 * rewriting hook on, that instruments them, with it passing through, it restores them. 'what' (the past
 * participle: "instrumented", "restored") words the warnings. Shared with the trace engine. */
void engine_instrument_retransform(JNIEnv *jni, bool (*wants)(const char *class_name, const void *arg),
                                   const void *arg, const char *what);

/* The calling thread's JNIEnv, or NULL with the reason (a session started from a thread the JVM does not
 * know). */
JNIEnv *engine_instrument_jni(char *err, size_t errlen);

/* VMDeath: the JVM is going away, restoring classes at stop would only slow the exit down. */
void engine_instrument_vm_death(void);

#endif
