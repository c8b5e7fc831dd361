/*
 * jvm_finder: turns a main class name (or jar name) into the pid of the running JVM, like jps: it reads the
 * command line of every java process in /proc. Used by jprof only.
 */
#ifndef JPROF_JVM_FINDER_H
#define JPROF_JVM_FINDER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* The pid of the only java process whose main class matches 'name' (NULL: of the only java process, asprof's
 * 'jps' target); -1 with a message when there is none or more than one. */
pid_t jvm_finder_find(const char *name, char *err, size_t errlen);

/* The main class (or "-jar" file, or "-m" module class) of a java command line given as NUL-separated
 * arguments. Pure, for the unit tests. -1 when the command line names none. */
int jvm_finder_main_class(const char *args, size_t len, char *out, size_t outlen);

/* True when 'name' is the main class, its simple name, or the jar's file name. */
bool jvm_finder_matches(const char *main_class, const char *name);

#endif
