/*
 * api_preload: start-up by LD_PRELOAD. `LD_PRELOAD=/path/libprof.so LIBPROF_COMMAND=start,file=out.html
 * program ...` (or async-profiler's ASPROF_COMMAND) profiles a program without changing its command line.
 *
 * A Java launcher (libjli loaded with the program) or a program linked with libjvm will create a JVM: the
 * constructor hands the command to that JVM as -agentpath in JAVA_TOOL_OPTIONS, which every HotSpot JVM
 * reads when it is created, so the session runs exactly as with -agentpath (and the JVM says "Picked up
 * JAVA_TOOL_OPTIONS" on stderr, as it does for any such option).
 *
 * Any other program is profiled from now on, with no JVM (session/no_jvm.h), and its profile written when
 * it exits. It is handed the command through JAVA_TOOL_OPTIONS as well, in case it creates a JVM later (a
 * native host loading libjvm itself): the session then goes on in that JVM, with Java frames
 * (profiler.c). Children inherit the environment, and so are profiled too, as they would be by
 * async-profiler's ASPROF_COMMAND.
 */
#define _GNU_SOURCE
#include "api_command.h"
#include "loaded_object.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether this library was loaded by LD_PRELOAD, not by -agentpath or System.load (where the JVM exists
 * and the command has no business in the environment of the process's children). */
static int preloaded(const char *self) {
    const char *preload = getenv("LD_PRELOAD");
    const char *base = strrchr(self, '/');
    base = base ? base + 1 : self;
    return preload && (strstr(preload, self) || strstr(preload, base));
}

/* The JVM to come learns the command from JAVA_TOOL_OPTIONS; 0, or -1 when it cannot carry it. */
static int hand_to_jvm(const char *command, const char *self) {
    const char *old = getenv("JAVA_TOOL_OPTIONS");
    if (old && strstr(old, self)) return 0;   /* a parent already handed it on */
    if (strpbrk(command, " \t\n") || strpbrk(self, " \t\n")) {
        /* JAVA_TOOL_OPTIONS splits at white space: the JVM would read another option than the one meant. */
        fprintf(stderr, "libprof: LIBPROF_COMMAND '%s' or the library path '%s' contains white space, which "
                        "JAVA_TOOL_OPTIONS cannot carry: not profiling a JVM of this process\n", command, self);
        return -1;
    }
    char *value = NULL;
    if (asprintf(&value, "%s%s-agentpath:%s=%s", old ? old : "", old ? " " : "", self, command) < 0) return -1;
    setenv("JAVA_TOOL_OPTIONS", value, 1);
    free(value);
    return 0;
}

/* A program with no JVM yet: the command runs now, as the C API would run it. */
static void start_here(const char *command) {
    api_result r;
    char err[1024];
    if (api_execute(NULL, command, false, &r, err, sizeof(err))) {
        fprintf(stderr, "libprof: LIBPROF_COMMAND '%s': %s\n", command, err);
        return;
    }
    if (r.length) fwrite(r.output, 1, r.length, stdout);
    free(r.output);
}

__attribute__((constructor)) static void libprof_preload_start(void) {
    const char *command = getenv("LIBPROF_COMMAND");
    if (!command) command = getenv("ASPROF_COMMAND");
    Dl_info info;
    if (!command || !dladdr((void *)libprof_preload_start, &info) || !info.dli_fname || !preloaded(info.dli_fname))
        return;
    bool java_program = loaded_object_find("libjli.so", NULL, 0) || loaded_object_find("libjvm.so", NULL, 0);
    if (java_program) {
        hand_to_jvm(command, info.dli_fname);
        return;
    }
    start_here(command);
    hand_to_jvm(command, info.dli_fname);
}
