/*
 * jprof_help: one table drives the option list, so each line can ask options.c whether its agent option
 * is understood ("pending" when not) instead of a hand-kept list going stale.
 */
#include "jprof_help.h"

#include "jprof_args.h"
#include "options.h"

#include <stdbool.h>
#include <string.h>

typedef struct {
    const char *flags;
    const char *agent_probe;   /* an agent option that exercises it, NULL when jprof handles it alone */
    const char *text;
} help_line;

static const help_line lines[] = {
    {"-d N", NULL, "profile for N seconds (start, wait, stop); the default action, for 60 s when -d is\n"
                   "                     not given; a countdown on stderr when it is a terminal; Ctrl-C,\n"
                   "                     SIGTERM or SIGHUP stop early and still write the profile; the agent\n"
                   "                     stops by itself N+5 s after the start should jprof be killed"},
    {"-e EVENT", "event=cpu", "sampling event: cpu (default), ctimer, itimer (see 'jprof list'), or Java\n"
                              "                     methods to instrument: pkg.Class.method, pkg.Class.*"},
    {"-i INTERVAL", "interval=10ms", "sampling interval: 10ms, 500us, 1s, or a bare number of nanoseconds;\n"
                                     "                     with -e pkg.Class.method: record every Nth call"},
    {"-f FILE", "file=x", "write the profile to FILE (in the JVM's file system, written by the JVM's\n"
                          "                     user; %p = pid, %t = timestamp); without -f it goes to stdout"},
    {"-o FORMAT", NULL, "output format, passed to the agent: collapsed, flamegraph, tree, text, jfr,\n"
                        "                     traces[=N], flat[=N]; default: from the -f extension, else text"},
    {"-t", "threads", "profile threads separately"},
    {"-j N", "jstackdepth=64", "maximum stack depth, all frames (default 2048)"},
    {"-I PATTERN", "include=a", "keep only stacks with a frame matching PATTERN (repeatable; * at ends)"},
    {"-X PATTERN", "exclude=a", "drop stacks with a frame matching PATTERN (repeatable)"},
    {"-s", "simple", "simple class names instead of fully qualified ones"},
    {"-g", "sig", "print method signatures"},
    {"-a", "ann", "annotate Java frames (_[j] _[i] ...)"},
    {"-l", "lib", "prepend the library name to native frames"},
    {"--title TEXT", "title=x", "title of the flame graph / report"},
    {"--minwidth PCT", "minwidth=1", "skip flame graph frames narrower than PCT percent"},
    {"--reverse", "reverse", "reverse stacks (flame graph of callers)"},
    {"--inverted", "inverted", "icicle graph: stacks grow downwards"},
    {"--total", "total", "count total time instead of samples"},
    {"--all-user", "alluser", "only user-mode events"},
    {"--cstack MODE", "cstack=dwarf", "how to walk stacks: vm (default), dwarf, fp, no"},
    {"--timeout DURATION", "timeout=10", "stop the profiler by itself after DURATION (start)"},
    {"-L LEVEL", "loglevel=info", "agent log level: debug, info, warn, error, none"},
    {"--libpath PATH", NULL, "the agent library to load (default: ../lib/libprof.so next to jprof);\n"
                             "                     must be visible at the same path inside the JVM"},
    {"--attach-timeout S", NULL, "seconds to wait for the JVM's attach listener (default 10)"},
    {"-h, --help", NULL, "this text"},
};

static bool agent_accepts(const char *probe) {
    char text[256], err[OPTIONS_ERROR_MAX];
    snprintf(text, sizeof(text), "start,%s", probe);
    prof_options o;
    return options_parse(text, &o, err, sizeof(err)) == 0;
}

void jprof_help_print(FILE *out) {
    fputs("Usage: jprof [action] [options] <pid | main class name>\n"
          "Profile a running JVM: jprof loads libprof.so into it through the HotSpot attach mechanism.\n"
          "\n"
          "Actions:\n"
          "  (none)             start, wait -d seconds, stop and print or write the profile\n"
          "  start              start profiling and return\n"
          "  resume             start, keeping the samples of the previous session\n"
          "  stop               stop and write the profile (stdout without -f)\n"
          "  dump               write the profile so far and keep profiling\n"
          "  status             state, engine, elapsed time, samples and drops\n"
          "  version            the version of the agent loaded in the JVM\n"
          "  list               the events that can be sampled\n"
          "\n"
          "Options:\n",
          out);
    for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
        const help_line *l = &lines[i];
        fprintf(out, "  %-18s %s%s\n", l->flags, l->text,
                l->agent_probe && !agent_accepts(l->agent_probe)
                    ? "\n                     [not supported by this agent build yet: refused as 'unknown option']"
                    : "");
    }
    fputs("\nFormats this agent writes now:", out);
    static const char *const formats[] = {"collapsed", "flamegraph", "tree", "text", "jfr", "traces", "flat"};
    for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
        if (agent_accepts(formats[i])) fprintf(out, " %s", formats[i]);
    }
    fputs("\n\n"
          "Examples:\n"
          "  jprof -d 30 -f /tmp/profile.collapsed 1234\n"
          "  jprof start -e cpu -i 1ms MyApp; jprof status MyApp; jprof stop -o collapsed MyApp > out.collapsed\n"
          "\n"
          "jprof run as root switches to the JVM's user. Agent messages go to stderr, the profile to stdout\n"
          "(without -f). The exit status is 0 on success and non-zero on any error.\n",
          out);
}

void jprof_help_print_events(FILE *out) {
    static const char *const events[] = {"cpu", "ctimer", "itimer", "wall", "alloc", "lock"};
    fputs("Events:\n", out);
    for (size_t i = 0; i < sizeof(events) / sizeof(events[0]); i++) {
        char probe[64];
        snprintf(probe, sizeof(probe), "event=%s", events[i]);
        if (agent_accepts(probe)) fprintf(out, "  %s\n", events[i]);
    }
}
