/*
 * names: how frames are spelled in every output. Pure string functions, shared by the agent and the tools.
 *   Java:   java/util/HashMap.get   (dot: java.util.HashMap.get, simple: HashMap.get, sig: adds the
 *           descriptor, ann: adds "_[j]" to Java frames)
 *   thread: [main tid=1234]
 * and the include/exclude patterns ('*' at either end, else an exact name).
 */
#ifndef LIBPROF_NAMES_H
#define LIBPROF_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct {
    bool simple;  /* class names without their package */
    bool dot;     /* '.' instead of '/' between package parts */
    bool sig;     /* append the method descriptor */
    bool ann;     /* append the frame-type annotation */
} names_style;

/* class_sig as JVMTI gives it ("Ljava/util/HashMap;"); method_sig may be NULL. */
void names_java_method(char *buf, size_t len, const char *class_sig, const char *method,
                       const char *method_sig, names_style style);

/* A thread's frame: "[name tid=N]", or "[tid=N]" without a name (NULL or empty), as async-profiler writes them. */
void names_thread(char *buf, size_t len, const char *thread_name, int tid);

/* Writes name to out so that it cannot break the line structure of a text format: a backslash becomes
 * two, newline, carriage return and tab become \n \r \t, any other control character (and every
 * character of 'also', e.g. ";" for collapsed stacks) becomes \xHH. Unambiguous: every backslash in the
 * output starts an escape. */
void names_fputs_escaped(const char *name, const char *also, FILE *out);

/* '*' at the start, the end or both; anything else matches the whole name exactly. */
bool names_match(const char *pattern, const char *name);

#endif
