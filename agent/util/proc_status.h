/*
 * proc_status: one field of a /proc status file ("/proc/self/status", "/proc/thread-self/status"), the
 * kernel's "Key:\tvalue" lines. Read by the umask of new files (safe_file), the seccomp mode (safe_read_mode)
 * and the tracer's pid (engine_perf). Not signal-safe (stdio).
 */
#ifndef LIBPROF_PROC_STATUS_H
#define LIBPROF_PROC_STATUS_H

#include <stdbool.h>
#include <stddef.h>

/* Copies the value of 'key' (without the colon; leading blanks and the newline removed) from the status file
 * at 'path' into value. False when the file cannot be read or has no such line. */
bool proc_status_field(const char *path, const char *key, char *value, size_t len);

#endif
