/*
 * filepath: file path helpers. Expands the file= pattern: %p = pid, %t = timestamp (YYYYMMDD-HHMMSS, local time),
 * %n = the loop's sequence number, %n{MAX} = that modulo MAX (a rolling set of MAX files), %{NAME} = the
 * environment variable NAME (refused when unset), %% = '%'.
 * Any other '%' sequence is refused so that a pattern can never smuggle a format specifier anywhere.
 */
#ifndef LIBPROF_FILEPATH_H
#define LIBPROF_FILEPATH_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <time.h>

/* Returns 0, or -1 with a message in err naming the pattern and the bad sequence. */
int filepath_expand(const char *pattern, pid_t pid, time_t when, char *out, size_t outlen, char *err,
                    size_t errlen);

/* The number %n expands to from now on: the profiler's loop counts its periods with it. */
void filepath_set_sequence(unsigned long n);

/* True when path ends with suffix (".html", "/libjvm.so"). */
bool filepath_ends_with(const char *path, const char *suffix);

#endif
