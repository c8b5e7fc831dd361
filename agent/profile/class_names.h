/*
 * class_names: the classes that allocation and lock samples end in (their leaf frame, a FRAME_CLASS_* kind), kept
 * as JVMTI class signatures ("Ljava/lang/String;", "[I") under small stable ids, so that a stored stack
 * holds an id rather than a pointer into the JVM. Interning takes a mutex and may allocate: callers are
 * JVMTI callbacks and readers, never signal handlers. Ids live for the process (classes are few).
 */
#ifndef LIBPROF_CLASS_NAMES_H
#define LIBPROF_CLASS_NAMES_H

#include <stddef.h>
#include <stdint.h>

/* The id of 'signature' (> 0), interned on first sight; 0 when out of memory. */
uint32_t class_names_intern(const char *signature);

/* The signature under 'id', or NULL for an unknown id. Stable for the process. */
const char *class_names_signature(uint32_t id);

/* A class signature as Java spells the class: "Ljava/lang/String;" -> "java.lang.String", "[I" -> "int[]",
 * "[[Ljava/lang/Object;" -> "java.lang.Object[][]"; a name that is not a signature is copied as it is. */
void class_names_java_name(const char *signature, char *buf, size_t len);

#endif
