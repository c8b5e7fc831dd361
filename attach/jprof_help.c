/*
 * jprof_help: the option table (options_table.c) drives the option list, so each line can ask options.c
 * whether its agent option is understood ("pending" when not) instead of a hand-kept list going stale.
 */
#include "jprof_help.h"

#include "event_names.h"
#include "jprof_args.h"
#include "options.h"
#include "options_table.h"
#include "perf_events.h"

#include <stdbool.h>
#include <string.h>

static bool agent_accepts(const char *probe) {
    char text[256], err[OPTIONS_ERROR_MAX];
    snprintf(text, sizeof(text), "start,%s", probe);
    prof_options o;
    return options_parse(text, &o, err, sizeof(err)) == 0;
}

/* A row whose agent option this agent build refuses yet is marked so. */
static const char *pending(const options_spec *s) {
    char probe[128];
    snprintf(probe, sizeof(probe), "%s%s%s", s->name ? s->name : "", s->probe && *s->probe ? "=" : "",
             s->probe ? s->probe : "");
    return s->name && s->probe && !agent_accepts(probe)
               ? "\n                     [not supported by this agent build yet: refused as 'unknown option']"
               : "";
}

void jprof_help_print(FILE *out) {
    fputs("Usage: jprof [action] [options] <pid | main class name | jps>\n"
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
          "  collect            the same as no action\n"
          "  metrics            the agent's counters in Prometheus' text format\n"
          "  load               load the agent only (for the Java API, its MBean, later requests)\n"
          "\n"
          "Target: a pid, a main class or jar name, or jps: the one JVM running here.\n"
          "\n"
          "Options:\n",
          out);
    options_table_print_help(out, OPTIONS_JPROF, pending);
    /* jprof's own switches, not options: they stop before any target is needed. */
    fprintf(out, "  %-18s %s\n", "-v, --version", "jprof's version");
    fprintf(out, "  %-18s %s\n", "-h, --help", "this text");
    fputs("\nFormats this agent writes now:", out);
    static const char *const formats[] = {"collapsed", "flamegraph", "tree", "text", "jfr", "traces", "flat",
                                          "pprof", "speedscope", "cpuprofile", "gecko"};
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

/* Each name is printed only when this agent build accepts it as event=NAME. */
static void print_events_accepted(FILE *out, const char *title, const char *const *names, size_t n) {
    fputs(title, out);
    for (size_t i = 0; i < n; i++) {
        char probe[64];
        snprintf(probe, sizeof(probe), "event=%s", names[i]);
        if (agent_accepts(probe)) fprintf(out, "  %s\n", names[i]);
    }
}

void jprof_help_print_events(FILE *out) {
    static const char *const basic[] = {EVENT_NAMES(EVENT_NAMES_AS_ELEMENT)};
    print_events_accepted(out, "Basic events:\n", basic, sizeof(basic) / sizeof(basic[0]));
    fputs("Java method calls (bytecode instrumentation):\n  pkg.Class.method\n  pkg.Class.*\n", out);
    const char *perf[32];
    size_t n = 0;
    for (const perf_event_kind *k; n < sizeof(perf) / sizeof(perf[0]) && (k = perf_events_at((int)n));) perf[n++] = k->name;
    print_events_accepted(out, "Perf events (whether this kernel allows them is checked at start):\n", perf, n);
}
