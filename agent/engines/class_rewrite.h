/*
 * class_rewrite: what every class file rewrite of the engines ends with: the rewritten bytes handed to the
 * JVM in memory JVMTI allocated, as ClassFileLoadHook requires. Used by method instrumentation and by the
 * lock engine's rewrite of LockSupport.
 */
#ifndef LIBPROF_CLASS_REWRITE_H
#define LIBPROF_CLASS_REWRITE_H

#include <jvmti.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Copies out[0..out_len) into JVMTI memory as the hook's new class data. False (nothing handed over) when
 * it is too large for a jint or JVMTI cannot allocate it. */
bool class_rewrite_hand_over(jvmtiEnv *jvmti, const uint8_t *out, size_t out_len, jint *new_class_data_len,
                             unsigned char **new_class_data);

#endif
