/*
 * filepath: file path helpers. Expands the file= pattern: %p = pid, %t = timestamp (YYYYMMDD-HHMMSS, local time), %% = '%'.
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

/* True when path ends with suffix (".html", "/libjvm.so"). */
bool filepath_ends_with(const char *path, const char *suffix);

#endif
