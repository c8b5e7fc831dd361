/*
 * api_preload: start-up by LD_PRELOAD. `LD_PRELOAD=/path/libprof.so LIBPROF_COMMAND=start,file=out.html
 * java ...` (or async-profiler's ASPROF_COMMAND) profiles the JVM a launcher or a native host creates,
 * without changing its command line. At load time, before main, no JVM exists yet: the constructor hands
 * the command to the JVM to come as -agentpath in JAVA_TOOL_OPTIONS, which every HotSpot JVM reads when it
 * is created, so the session runs exactly as with -agentpath (and the JVM says "Picked up
 * JAVA_TOOL_OPTIONS" on stderr, as it does for any such option). Children inherit the environment, and so
 * are profiled too, as they would be by async-profiler's ASPROF_COMMAND.
 */
#define _GNU_SOURCE
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

__attribute__((constructor)) static void libprof_preload_start(void) {
    const char *command = getenv("LIBPROF_COMMAND");
    if (!command) command = getenv("ASPROF_COMMAND");
    Dl_info info;
    if (!command || !dladdr((void *)libprof_preload_start, &info) || !info.dli_fname || !preloaded(info.dli_fname))
        return;
    const char *old = getenv("JAVA_TOOL_OPTIONS");
    if (old && strstr(old, info.dli_fname)) return;   /* a parent already handed it on */
    if (strpbrk(command, " \t\n") || strpbrk(info.dli_fname, " \t\n")) {
        /* JAVA_TOOL_OPTIONS splits at white space: the JVM would read another option than the one meant. */
        fprintf(stderr, "libprof: LIBPROF_COMMAND '%s' or the library path '%s' contains white space, which "
                        "JAVA_TOOL_OPTIONS cannot carry: not profiling\n", command, info.dli_fname);
        return;
    }
    char *value = NULL;
    if (asprintf(&value, "%s%s-agentpath:%s=%s", old ? old : "", old ? " " : "", info.dli_fname, command) < 0) return;
    setenv("JAVA_TOOL_OPTIONS", value, 1);
    free(value);
}
