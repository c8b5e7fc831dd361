/*
 * classfile: a JVM class file parser and writer that inserts a call to a static helper method
 * (invokestatic helper_class.helper_method()V) at the start of every method the caller's filter selects.
 *
 * Pure function of its input, no JVM dependency: used by the instrumentation engine (ClassFileLoadHook),
 * the unit tests and the fuzz harness. When anything in the class is not understood or the rewritten
 * method would break a limit of the format, the class is left untouched and 'why' says what: an
 * unverifiable class must never reach the JVM.
 */
#ifndef LIBPROF_CLASSFILE_H
#define LIBPROF_CLASSFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Chooses methods. Names are NUL-terminated, decoded from the class file's modified UTF-8:
 * class_name in internal form ("java/util/HashMap"), method name ("get", "<init>"), descriptor
 * ("(Ljava/lang/Object;)Ljava/lang/Object;"). Abstract and native methods are never offered. */
typedef bool (*classfile_method_filter)(const char *class_name, const char *method_name,
                                        const char *descriptor, void *arg);

typedef enum {
    CLASSFILE_REWRITTEN = 0,  /* *out holds the new class (malloc'ed, caller frees) */
    CLASSFILE_UNCHANGED,      /* no method selected; *out is NULL */
    CLASSFILE_REFUSED,        /* malformed or unsupported input, or a limit would break; *out is NULL, why set */
} classfile_result;

/* helper_class in internal form ("libprof/Instrument"), helper_method a static ()V method.
 * *methods_rewritten (may be NULL) receives how many methods got the call. */
classfile_result classfile_instrument(const uint8_t *in, size_t in_len, const char *helper_class,
                                      const char *helper_method, classfile_method_filter filter, void *arg,
                                      uint8_t **out, size_t *out_len, int *methods_rewritten,
                                      char *why, size_t why_len);

/* Tracing: chooses methods like classfile_method_filter and gives each chosen one its id (0 to
 * CLASSFILE_TRACE_MAX_ID), or -1 for a method left alone. */
typedef int (*classfile_trace_filter)(const char *class_name, const char *method_name, const char *descriptor,
                                      void *arg);
#define CLASSFILE_TRACE_MAX_ID 32767

/* Rewrites every method the filter gives an id so that it calls helper_class.enter(id) first and
 * helper_class.exit(id) on every way out: before each return, and from a catch-all handler after the code
 * that rethrows what it caught. Constructors get no handler (the verifier refuses one that covers the code
 * before the super() call), so a constructor that throws calls no exit. Both helpers are static (I)V.
 * Results and refusals as classfile_instrument's. */
classfile_result classfile_trace(const uint8_t *in, size_t in_len, const char *helper_class, const char *enter,
                                 const char *exit, classfile_trace_filter filter, void *arg, uint8_t **out,
                                 size_t *out_len, int *methods_rewritten, char *why, size_t why_len);

#endif
