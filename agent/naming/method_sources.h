/*
 * method_sources: where a Java method's code is, for the viewer formats: its source file and the line of
 * a bytecode index. Asked of JVMTI (GetSourceFileName, GetLineNumberTable) once per method at dump time
 * and cached for the dump; never from a signal handler. The file is spelled as javac lays sources out,
 * the class's package as directories and the class file's SourceFile attribute as the name
 * ("java/util/HashMap.java"): the directory is the package's, not a path on any disk.
 */
#ifndef LIBPROF_METHOD_SOURCES_H
#define LIBPROF_METHOD_SOURCES_H

#include "u64map.h"

#include <stdint.h>

typedef struct method_source method_source;

typedef struct {
    u64map index;            /* jmethodID -> entry + 1 */
    method_source *entries;
    uint32_t count, capacity;
    void *describe;          /* a jvm_method_info (2.5 KB) to read a method into, allocated on first use */
} method_sources;

void method_sources_init(method_sources *s);
void method_sources_free(method_sources *s);

/* The source of 'method' (a jmethodID): *file its source file ("" when the class has no SourceFile
 * attribute or is gone), *start_line its first line with code (0 unknown); the returned handle answers
 * method_sources_line until the next call. NULL when out of memory. */
const method_source *method_sources_get(method_sources *s, uint64_t method, const char **file, int32_t *start_line);

/* The line of bytecode index 'bci' (0 when unknown: no line table, native method). */
int32_t method_sources_line(const method_source *m, int32_t bci);

#endif
