/*
 * jfrconv_args: see jfrconv_args.h. Options take their value as the next argument or after '='
 * (--title=T); single-letter flags are async-profiler's (-o -t -s -r -I -X). Which flags exist and which
 * take a value comes from the option table (options_table.c).
 */
#define _GNU_SOURCE
#include "jfrconv_args.h"

#include "errmsg.h"
#include "options_table.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void jfrconv_usage(FILE *out) {
    fputs("Usage: jfrconv [options] input.jfr [more.jfr...] output\n"
          "Converts JFR recordings (libprof's, or the JDK's own from -XX:StartFlightRecording or jcmd JFR.dump)\n"
          "into a flame graph, call tree, text report, collapsed stacks or a viewer format. Reads\n"
          "jdk.ExecutionSample, jdk.NativeMethodSample and jdk.CPUTimeSample events (with --nativemem:\n"
          "profiler.Malloc, --nativelock: profiler.NativeLock) from every chunk of every input; an input not\n"
          "named .jfr that is text is read as collapsed stacks.\n"
          "The format comes from -o, else from the output's extension: .html/.htm flame graph,\n"
          ".collapsed/.folded/.csv collapsed stacks, .pb.gz/.pprof pprof, .speedscope.json, .cpuprofile,\n"
          ".gecko.json, .otlp OpenTelemetry profiles, anything else a text report. Output '-': standard output.\n"
          "With only an input, writes input.html beside it.\n"
          "\n"
          "Options:\n",
          out);
    options_table_print_help(out, OPTIONS_JFRCONV, NULL);
    fputs("  -h, --help           this help\n", out);
    fputs("  -v, --version        the version and the licence\n", out);
}

/* Digits with an optional fraction and a unit suffix: ns us ms s m h; no suffix = milliseconds. The whole
 * part is exact integer arithmetic (epoch times in ns need all 64 bits). */
static int parse_duration(const char *s, uint64_t *out_ns) {
    char *end;
    errno = 0;
    if (*s < '0' || *s > '9') return -1;
    unsigned long long whole = strtoull(s, &end, 10);
    double frac = 0;
    if (errno) return -1;
    if (*end == '.') {
        char *frac_end;
        frac = strtod(end, &frac_end);
        if (frac_end == end + 1) return -1;
        end = frac_end;
    }
    static const struct { const char *suffix; uint64_t ns; } units[] = {
        {"", 1000000}, {"ns", 1}, {"us", 1000}, {"ms", 1000000}, {"s", 1000000000}, {"m", 60000000000ULL},
        {"h", 3600000000000ULL},
    };
    for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
        if (strcmp(end, units[i].suffix) == 0) {
            if (whole > UINT64_MAX / units[i].ns - 1) return -1;
            *out_ns = (uint64_t)whole * units[i].ns + (uint64_t)(frac * (double)units[i].ns);
            return 0;
        }
    }
    return -1;
}

int jfrconv_parse_time(const char *text, jfrconv_time *out) {
    struct tm tm = {0};
    const char *rest;
    if (!text || !*text) return -1;
    if ((rest = strptime(text, "%Y-%m-%dT%H:%M:%S", &tm)) || (rest = strptime(text, "%Y-%m-%d %H:%M:%S", &tm))) {
        uint64_t frac_ns = 0;
        if (*rest == '.') {
            char *end;
            double frac = strtod(rest, &end);
            frac_ns = (uint64_t)(frac * 1e9);
            rest = end;
        }
        bool utc = *rest == 'Z';
        if (utc) rest++;
        if (*rest) return -1;
        tm.tm_isdst = -1;
        time_t t = utc ? timegm(&tm) : mktime(&tm);
        if (t < 0) return -1;
        *out = (jfrconv_time){TIME_ABSOLUTE, (uint64_t)t * 1000000000ULL + frac_ns};
        return 0;
    }
    memset(&tm, 0, sizeof(tm));
    if ((rest = strptime(text, "%H:%M:%S", &tm)) && !*rest && strchr(text, ':')) {
        *out = (jfrconv_time){TIME_OF_DAY, ((uint64_t)tm.tm_hour * 3600 + tm.tm_min * 60 + tm.tm_sec) * 1000000000ULL};
        return 0;
    }
    bool negative = text[0] == '-';
    uint64_t ns;
    if (parse_duration(text + negative, &ns)) return -1;
    /* A bare number this large is a point in time (milliseconds since the epoch), as async-profiler reads it. */
    bool bare = text[strspn(text + negative, "0123456789") + negative] == 0;
    if (!negative && bare && ns >= 1000000000000ULL * 1000000ULL) {
        *out = (jfrconv_time){TIME_ABSOLUTE, ns};
        return 0;
    }
    *out = (jfrconv_time){negative ? TIME_FROM_END : TIME_FROM_START, ns};
    return 0;
}

uint64_t jfrconv_resolve_time(const jfrconv_time *t, uint64_t start_ns, uint64_t end_ns, uint64_t fallback) {
    switch (t->kind) {
    case TIME_ABSOLUTE: return t->ns;
    case TIME_FROM_START: return start_ns + t->ns;
    case TIME_FROM_END: return end_ns > t->ns ? end_ns - t->ns : 0;
    case TIME_OF_DAY: {
        time_t secs = (time_t)(start_ns / 1000000000ULL);
        struct tm day;
        localtime_r(&secs, &day);
        day.tm_hour = day.tm_min = day.tm_sec = 0;
        day.tm_isdst = -1;
        time_t midnight = mktime(&day);
        return (uint64_t)midnight * 1000000000ULL + t->ns;
    }
    default: return fallback;
    }
}

/* --tail: a ratio from 0 to 1, or a percentage from 0% to 100%. */
static int parse_tail(const char *name, const char *value, double *tail, char *err, size_t errlen) {
    char *end = NULL;
    double v = value && *value ? strtod(value, &end) : -1;
    if (end && *end == '%' && end[1] == 0 && end != value) {
        v /= 100;
        end++;
    }
    if (!end || *end || end == value || !(v >= 0 && v <= 1))
        return errmsg_fail(err, errlen, "%s '%s': expected a ratio from 0 to 1 (0.2) or a percentage (20%%)", name,
                           value ? value : "");
    *tail = v;
    return 0;
}

/* A flag's value by its row: the converter's own settings by the row's jfrconv_sets, every other row by
 * the agent's parser into the output options, with the agent's messages. 'name' is the flag as given. */
static int apply(jfrconv_args *a, const options_spec *s, const char *name, const char *value, char *err,
                 size_t errlen) {
    switch (s->jfrconv_sets) {
    case JFRCONV_SETS_OUTPUT: return options_table_apply(s, name, value, &a->output, err, errlen);
    case JFRCONV_SETS_STATES: return jfr_convert_add_states(&a->convert, value, err, errlen);
    case JFRCONV_SETS_INCLUDE:
    case JFRCONV_SETS_EXCLUDE:
        return jfr_convert_add_filter(&a->convert, s->jfrconv_sets == JFRCONV_SETS_INCLUDE, value, err, errlen);
    case JFRCONV_SETS_CPU_ONLY: a->convert.cpu_only = true; return 0;
    case JFRCONV_SETS_WALL_ONLY: a->convert.wall_only = true; return 0;
    case JFRCONV_SETS_ALLOC_ONLY: a->convert.alloc = true; return 0;
    case JFRCONV_SETS_LOCK_ONLY: a->convert.lock = true; return 0;
    case JFRCONV_SETS_LINES: a->convert.lines = true; return 0;
    case JFRCONV_SETS_BCI: a->convert.bci = true; return 0;
    case JFRCONV_SETS_NORM: a->convert.norm = true; return 0;
    case JFRCONV_SETS_DIFF: a->diff = true; return 0;
    case JFRCONV_SETS_NATIVEMEM: a->convert.nativemem = true; return 0;
    case JFRCONV_SETS_NATIVELOCK: a->convert.nativelock = true; return 0;
    case JFRCONV_SETS_TRACE_ONLY: a->convert.trace = true; return 0;
    case JFRCONV_SETS_LATENCY:
    case JFRCONV_SETS_LATENCY_DIFF:
        /* async-profiler's --latency: a bare number is milliseconds */
        if (!value || options_parse_duration(value, 1000000, &a->convert.latency_ns))
            return errmsg_fail(err, errlen, "%s '%s': expected a duration such as 100 (ms), 100ms, 50us or 1s", name,
                               value ? value : "");
        a->convert.latency = true;
        a->latency_diff = s->jfrconv_sets == JFRCONV_SETS_LATENCY_DIFF;
        return 0;
    case JFRCONV_SETS_TAIL: return parse_tail(name, value, &a->convert.tail, err, errlen);
    case JFRCONV_SETS_FROM:
    case JFRCONV_SETS_TO:
        if (jfrconv_parse_time(value, s->jfrconv_sets == JFRCONV_SETS_FROM ? &a->from : &a->to))
            return errmsg_fail(err, errlen, "%s '%s': expected a time such as 10s, 500ms, -5s, 1700000000000 (epoch ms), "
                        "2026-11-22T10:15:00 or 10:15:00", name, value);
        return 0;
    }
    return errmsg_fail(err, errlen, "%s: no setting for this table row", name);   /* cannot happen */
}

/* The converter reads the naming, thread and reverse settings the output options received by their rows. */
static void settle(jfrconv_args *a) {
    a->convert.threads = a->output.threads;
    a->convert.state_frames = a->output.states;
    a->convert.live = a->output.live;
    a->convert.style = (names_style){a->output.simple, a->output.dot, a->output.sig, a->output.ann};
    a->convert.leak = a->output.leak;
    a->convert.classify = a->output.classify;   /* JFR stacks are classified as they are read (their frames' types) */
}

int jfrconv_args_parse(int argc, char **argv, jfrconv_args *a, char *err, size_t errlen) {
    memset(a, 0, sizeof(*a));
    jfr_convert_options_init(&a->convert);
    options_init(&a->output);
    const char *positional[JFRCONV_MAX_INPUTS + 1];
    int npos = 0;
    bool options_done = false;
    for (int i = 1; i < argc; i++) {
        char *arg = argv[i];
        if (options_done || arg[0] != '-' || strcmp(arg, "-") == 0) {
            if (npos > JFRCONV_MAX_INPUTS) return errmsg_fail(err, errlen, "more than %d inputs", JFRCONV_MAX_INPUTS);
            positional[npos++] = arg;
            continue;
        }
        if (strcmp(arg, "--") == 0) {
            options_done = true;
            continue;
        }
        char name[64];
        const char *value = NULL;
        const char *eq = strncmp(arg, "--", 2) == 0 ? strchr(arg, '=') : NULL;
        size_t n = eq ? (size_t)(eq - arg) : strlen(arg);
        if (n >= sizeof(name)) return errmsg_fail(err, errlen, "unknown option '%.60s'; see jfrconv --help", arg);
        memcpy(name, arg, n);
        name[n] = 0;
        if (eq) value = eq + 1;
        const options_spec *spec = options_table_jfrconv(name);
        bool help = strcmp(name, "-h") == 0 || strcmp(name, "--help") == 0;
        bool version = strcmp(name, "-v") == 0 || strcmp(name, "--version") == 0;
        if (help || version) {
            if (value) return errmsg_fail(err, errlen, "option %s takes no value (got '%s')", name, value);
            if (help) a->help = true;
            else a->version = true;
            continue;
        }
        if (spec && !options_table_takes_value(spec)) {
            if (apply(a, spec, name, value, err, errlen)) return -1;
            continue;
        }
        if (!spec) return errmsg_fail(err, errlen, "unknown option '%s'; see jfrconv --help", arg);
        if (!value) {
            if (i + 1 >= argc) return errmsg_fail(err, errlen, "option %s needs a value", name);
            value = argv[++i];
        }
        if (apply(a, spec, name, value, err, errlen)) return -1;
    }
    settle(a);
    if (a->help || a->version) return 0;
    if (a->convert.cpu_only && a->convert.wall_only)
        return errmsg_fail(err, errlen, "--cpu and --wall: give one (each selects one event of the recording)");
    if (npos == 0) return errmsg_fail(err, errlen, "no input file; usage: jfrconv [options] input.jfr [more.jfr...] output");
    if (a->latency_diff && (a->diff || npos != 2))
        return errmsg_fail(err, errlen, "--latency-diff takes one recording and an output (jfrconv --latency-diff "
                           "TIME app.jfr diff.html)%s", a->diff ? ", not --diff" : "");
    if (a->diff && npos != 3)
        return errmsg_fail(err, errlen, "--diff takes two inputs and an output (jfrconv --diff BASE NEW OUTPUT); got "
                           "%d file name%s", npos, npos == 1 ? "" : "s");
    if (npos == 1) {
        /* Only an input: the flame graph beside it, as async-profiler's jfrconv does. */
        static char derived[4096];
        const char *in = positional[0];
        size_t len = strlen(in);
        if (len > 4 && strcmp(in + len - 4, ".jfr") == 0) len -= 4;
        if (len + 6 > sizeof(derived)) return errmsg_fail(err, errlen, "input path too long: %.60s...", in);
        snprintf(derived, sizeof(derived), "%.*s.html", (int)len, in);
        positional[npos++] = derived;
    }
    for (int i = 0; i + 1 < npos; i++) a->inputs[a->input_count++] = positional[i];
    a->output_path = positional[npos - 1];
    /* The agent's writers take a file= pattern: escape '%' so the path is used as given. */
    size_t used = 0;
    if (strcmp(a->output_path, "-") != 0) {
        for (const char *c = a->output_path; *c; c++) {
            if (used + 3 >= sizeof(a->output.file)) return errmsg_fail(err, errlen, "output path too long");
            if (*c == '%') a->output.file[used++] = '%';
            a->output.file[used++] = *c;
        }
    }
    a->output.file[used] = 0;
    prof_format format = options_effective_format(&a->output);
    /* -r: the page opens reversed; other formats get their stacks written leaf first. */
    if (a->output.reverse && format != FORMAT_FLAMEGRAPH && format != FORMAT_TREE) {
        a->output.reverse = false;
        /* Shaping counts frames from the root: the stacks are reversed after it. */
        if (a->output.classify || a->output.skip || a->output.grain > 0) a->reverse_after_shaping = true;
        else a->convert.reverse_stacks = true;
    }
    return 0;
}
