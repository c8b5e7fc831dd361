/*
 * libprof.h: the C API of libprof.so, for native programs: to profile themselves, or a JVM they host
 * (JNI_CreateJavaVM). Commands are the agent's option language, the same as -agentpath:libprof.so=... and
 * jprof: "start,event=cpu,interval=1ms", "dump,file=out.html", "stop", "status", "metrics", "version".
 * Each command finds the JVM of the process when there is one. Without one, the session records native
 * frames with the engines that need no JVM (cpu, wall, itimer, ctimer, perf events, nativemem,
 * nativelock); a Java-only request (alloc, lock, a Java method's event) is refused, naming it.
 *
 * Link with -lprof (or dlopen libprof.so and dlsym these names). Thread-safe: commands are serialised.
 *
 * async-profiler's C API (asprof_init, asprof_execute, asprof_error_str) is offered too, by its names and
 * signatures, for programs written against it.
 */
#ifndef LIBPROF_H
#define LIBPROF_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Receives a command's output ('size' bytes, not NUL-terminated), in one or more calls. */
typedef void (*libprof_writer)(const char *buf, size_t size, void *arg);

/* Finds the JVM of this process, if any, and sets the profiler up in it. Called by libprof_execute when
 * needed. 0 (also in a process with no JVM), or -1 (see libprof_last_error). */
int libprof_init(void);

/* Runs one command. Its output (a profile without file=, status, metrics, version) goes to 'writer',
 * or is dropped when writer is NULL. Where there is a JVM, the calling thread is attached to it for the
 * command if it was not. 0, or -1 (see libprof_last_error). */
int libprof_execute(const char *command, libprof_writer writer, void *arg);

/* The calling thread's last error of libprof_init or libprof_execute, one line; "" after a success. */
const char *libprof_last_error(void);

/* async-profiler's C API (asprof.h): NULL for success, else an error that asprof_error_str explains. */
typedef const char *asprof_error_t;
typedef void (*asprof_writer_t)(const char *buf, size_t size);
void asprof_init(void);
const char *asprof_error_str(asprof_error_t err);
asprof_error_t asprof_execute(const char *command, asprof_writer_t output_callback);

#ifdef __cplusplus
}
#endif

#endif
