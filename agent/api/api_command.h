/*
 * api_command: one command of the agent's option language run for an API caller (the Java API's natives
 * in api_jni.c, the C API in api_c.c) instead of an attach request: the same parser and session as
 * -agentpath and jprof, with the output that would go to standard output returned to the caller instead.
 * Loaded by System.load or a native host rather than as an agent, the library sets JVMTI up itself on the
 * first command, as a dynamic attach does (and with its limits, docs/embedding.md).
 */
#ifndef LIBPROF_API_COMMAND_H
#define LIBPROF_API_COMMAND_H

#include <jni.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What a command left: its output (malloc'd, NUL-terminated; the caller frees it), and whether the
 * error was in the command itself (a bad option) rather than in the profiler's state. */
typedef struct {
    char *output;
    size_t length;
    bool bad_command;
} api_result;

/* Runs 'command' in the VM 'vm', from a thread attached to it; with vm NULL, in a process with no JVM
 * (session/no_jvm.h). A command with an output format but no action ("collapsed", "traces=10") dumps, as in
 * async-profiler's API. 'binary': the caller takes the output as bytes, so a binary format (otlp) may be
 * returned without file=. Returns 0, or -1 with one line in err. */
int api_execute(JavaVM *vm, const char *command, bool binary, api_result *result, char *err, size_t errlen);

/* Sets JVMTI up in 'vm' if nothing did yet (the library was not loaded as an agent), from a thread attached
 * to it; nothing with vm NULL. Returns 0, or -1 with one line in err. */
int api_init(JavaVM *vm, char *err, size_t errlen);

/* Adds (or removes) the OS thread 'tid' to the threads a session with `filter` samples. -1 when the
 * filter's storage cannot be reserved. */
int api_filter_thread(int tid, bool enable);

/* Samples stored by the current (or last) session. */
uint64_t api_samples(void);

#endif
