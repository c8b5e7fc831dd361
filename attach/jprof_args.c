/*
 * jprof_args: each flag maps to one agent option token, by the option table (options_table.c). Values may
 * not contain ',' because the agent's grammar splits on it; that is refused here with the flag's name rather than letting the agent see a
 * mangled option. Whether the agent supports an option is not decided here: options.c decides (jprof
 * checks the final string with it before attaching), so new agent options need no change in jprof.
 */
#include "jprof_args.h"

#include "event_kind.h"
#include "options_table.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const action_names[] = {"collect", "start", "resume", "stop", "dump", "status", "version", "list",
                                           "metrics", "load"};

const char *jprof_action_name(jprof_action action) {
    return (unsigned)action <= JPROF_LOAD ? action_names[action] : "?";
}

static int fail(char *err, size_t errlen, const char *msg, const char *arg) {
    snprintf(err, errlen, msg, arg);
    return -1;
}


int jprof_args_pid(const char *target, int *pid, char *err, size_t errlen) {
    if (!*target || strspn(target, "0123456789") != strlen(target)) return 0;
    errno = 0;
    unsigned long long value = strtoull(target, NULL, 10);
    if (errno == ERANGE || value == 0 || value > INT_MAX) {
        snprintf(err, errlen, "'%s' is not a process id: a pid is a number from 1 to %d", target, INT_MAX);
        return -1;
    }
    *pid = (int)value;
    return 1;
}

static int append(char *buf, size_t cap, const char *token, const char *value) {
    size_t len = strlen(buf);
    int n = snprintf(buf + len, cap - len, "%s%s%s%s", len ? "," : "", token, value ? "=" : "", value ? value : "");
    return n < 0 || (size_t)n >= cap - len ? -1 : 0;
}

/* Where the option 'prefix' (e.g. "timeout=") starts in a comma-separated option string, or NULL. */
static const char *find_option(const char *options, const char *prefix) {
    for (const char *p = options; (p = strstr(p, prefix)); p++) {
        if (p == options || p[-1] == ',') return p;
    }
    return NULL;
}

bool jprof_args_shows_info(const jprof_args *a) {
    const char *level = find_option(a->profiling, "loglevel=");
    if (!level) return false;
    level += strlen("loglevel=");
    return strncasecmp(level, "info", 4) == 0 || strncasecmp(level, "debug", 5) == 0;
}

static int parse_action(const char *arg, jprof_action *out) {
    for (int i = JPROF_COLLECT; i <= JPROF_LOAD; i++) {
        if (strcmp(arg, action_names[i]) == 0) {
            *out = (jprof_action)i;
            return 0;
        }
    }
    return -1;
}

static int parse_seconds(const char *s, int min, int *out) {
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || v < min || v > 1e6) return -1;
    *out = (int)v;
    return 0;
}

static int copy(char *dst, size_t cap, const char *value, const char *flag, char *err, size_t errlen) {
    if (strlen(value) >= cap) return fail(err, errlen, "%s: value too long", flag);
    strcpy(dst, value);
    return 0;
}

/* A flag with a value that jprof uses itself rather than passing on (the row's 'own' says which). */
static int parse_own_option(const options_spec *s, const char *arg, const char *value, jprof_args *a, char *err,
                            size_t errlen) {
    int seconds;
    switch (s->own) {
    case OPTION_OWN_DURATION:
        if (parse_seconds(value, 1, &a->duration_s))
            return fail(err, errlen, "-d %s: expected a duration in seconds (>= 1)", value);
        a->duration_given = true;
        return 0;
    case OPTION_OWN_ATTACH_TIMEOUT:
        if (parse_seconds(value, 1, &seconds))
            return fail(err, errlen, "--attach-timeout %s: expected seconds (>= 1)", value);
        a->attach_timeout_ms = seconds * 1000;
        return 0;
    case OPTION_OWN_FILE: return copy(a->file, sizeof(a->file), value, arg, err, errlen);
    case OPTION_OWN_FORMAT: return copy(a->format, sizeof(a->format), value, arg, err, errlen);
    case OPTION_OWN_LIBPATH: return copy(a->libpath, sizeof(a->libpath), value, arg, err, errlen);
    case OPTION_OWN_FDTRANSFER:   /* a flag: parsed where it is found */
    case OPTION_OWN_NONE: break;
    }
    return fail(err, errlen, "%s: not one of jprof's own flags", arg);   /* cannot happen: the caller checks */
}

/* A word that is not an option: the action (first, optional) or the target. */
static int parse_word(const char *arg, jprof_args *a, bool *have_action, char *err, size_t errlen) {
    if (!*have_action && !a->target[0] && parse_action(arg, &a->action) == 0) {
        *have_action = true;
        return 0;
    }
    /* "jprof jcmd 1234": the first word was an action jprof does not have, not a main class name. */
    if (a->target[0] && !*have_action && arg[strspn(arg, "0123456789")] == 0 &&
        a->target[strspn(a->target, "0123456789")] != 0)
        return fail(err, errlen, "unknown action '%s': accepted: start resume stop dump status version list metrics "
                    "load, or none (collect for -d seconds)", a->target);
    if (a->target[0]) return fail(err, errlen, "unexpected argument '%s': give one pid or main class name", arg);
    return copy(a->target, sizeof(a->target), arg, "target", err, errlen);
}

/* asprof's commas in values the agent's grammar would split: --filter 120-127,132 is the agent's
 * filter=120-127;132 (--ratelimit cpu:50,alloc:100 likewise), -F agct,nosigtrap its features=agct+nosigtrap, --title 'a, b' its title=a&#44; b
 * (read back as a comma). Other values as they are. */
static const char *agent_spelling(const options_spec *spec, const char *value, char *buf, size_t len) {
    bool filter = spec->name && (strcmp(spec->name, "filter") == 0 || strcmp(spec->name, "ratelimit") == 0),
         title = spec->name && strcmp(spec->name, "title") == 0;
    bool features = spec->name && strcmp(spec->name, "features") == 0;
    if (!(filter || title || features) || !strchr(value, ',')) return value;
    const char *comma = filter ? ";" : features ? "+" : "&#44;";
    size_t used = 0;
    for (const char *c = value; *c && used + 6 < len; c++)
        used += (size_t)snprintf(buf + used, len - used, *c != ',' ? "%c" : comma, *c);
    return buf;
}

/* -e cpu,wall (asprof's spelling of several events): after the first event, only event kinds' names,
 * which the agent reads as the options that turn them on. */
static bool several_events(const options_spec *spec, const char *value) {
    if (!spec->name || strcmp(spec->name, "event") != 0) return false;
    const char *comma = strchr(value, ',');
    while (comma) {
        const char *next = strchr(comma + 1, ',');
        size_t n = next ? (size_t)(next - comma - 1) : strlen(comma + 1);
        char name[32];
        if (n == 0 || n >= sizeof(name)) return false;
        memcpy(name, comma + 1, n);
        name[n] = 0;
        if (event_kind_find(name) <= EVENT_CPU) return false;
        comma = next;
    }
    return true;
}

int jprof_args_parse(int argc, char **argv, jprof_args *a, char *err, size_t errlen) {
    memset(a, 0, sizeof(*a));
    a->duration_s = JPROF_DEFAULT_DURATION_S;
    a->attach_timeout_ms = JPROF_DEFAULT_ATTACH_TIMEOUT_MS;
    bool have_action = false;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const options_spec *spec = options_table_jprof(arg);
        /* asprof's long spellings of agent options (--threads, --event, --interval, --chunksize...): any agent
         * option as --NAME, actions aside. */
        if (!spec && strncmp(arg, "--", 2) == 0 && (spec = options_table_find(arg + 2)) && spec->kind == OPTION_ACTION)
            spec = NULL;
        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            a->help = true;
        } else if (strcmp(arg, "-v") == 0 || strcmp(arg, "--version") == 0) {
            a->version = true;
        } else if (spec && spec->own == OPTION_OWN_FDTRANSFER) {
            a->fdtransfer = true;
        } else if (spec && !options_table_takes_value(spec)) {
            if (append(a->profiling, sizeof(a->profiling), spec->name, NULL))
                return fail(err, errlen, "%s: too many options", arg);
        } else if (spec) {
            const char *value = argv[++i];
            if (!value) return fail(err, errlen, "%s needs a value", arg);
            /* The library path is not an agent option; everything else ends up in the comma-separated string. */
            /* -o traces=10,flat=5: format options, passed on as they are. */
            char spelled[sizeof(a->profiling)];
            value = agent_spelling(spec, value, spelled, sizeof(spelled));
            if (strchr(value, ',') && spec->own != OPTION_OWN_LIBPATH && spec->own != OPTION_OWN_FORMAT &&
                !several_events(spec, value))
                return fail(err, errlen, "%s: the value may not contain ',' (agent options are comma-separated)", arg);
            if (spec->own != OPTION_OWN_NONE) {
                if (parse_own_option(spec, arg, value, a, err, errlen)) return -1;
            } else if (!*value) {
                return fail(err, errlen, "%s needs a non-empty value", arg);
            } else if (append(a->profiling, sizeof(a->profiling), spec->name, value)) {
                return fail(err, errlen, "%s: too many options", arg);
            }
        } else if (strncmp(arg, "--", 2) == 0 && options_async_profiler_refusal(arg + 2)) {
            snprintf(err, errlen, "option '%s' (asprof's) is not supported: %s", arg,
                     options_async_profiler_refusal(arg + 2));
            return -1;
        } else if (arg[0] == '-') {
            return fail(err, errlen, "unknown option '%s' (see jprof --help)", arg);
        } else if (parse_word(arg, a, &have_action, err, errlen)) {
            return -1;
        }
    }
    if (a->help || a->version) return 0;
    if (a->duration_given && a->action != JPROF_COLLECT)
        return fail(err, errlen, "-d applies only without an action (it starts, waits, and stops); not with '%s'",
                    jprof_action_name(a->action));
    if (!a->target[0] && a->action != JPROF_LIST)
        return fail(err, errlen, "%s", "no target: give the pid or the main class name of a running JVM");
    bool loop = find_option(a->profiling, "loop=") != NULL, timeout = find_option(a->profiling, "timeout=") != NULL;
    /* --loop or --timeout without -d: start (the loop, or a session that stops by itself) and return, as
     * asprof does. */
    if ((loop || timeout) && a->action == JPROF_COLLECT && !a->duration_given) a->action = JPROF_START;
    /* The safety stop (if jprof dies, the session ends) would end a loop: with -d, jprof stops it itself. */
    if (a->action == JPROF_COLLECT && !loop && !timeout)
        a->start_timeout_s = a->duration_s + JPROF_SAFETY_MARGIN_S;
    return 0;
}

int jprof_args_agent_options(const jprof_args *a, const char *action, const char *file, const char *log,
                             char *out, size_t outlen) {
    out[0] = 0;
    /* load: the agent with no action, so it only sets itself up. */
    if (strcmp(action, "load") != 0 && append(out, outlen, action, NULL)) return -1;
    bool writes = strcmp(action, "start") == 0 || strcmp(action, "resume") == 0 || strcmp(action, "stop") == 0 ||
                  strcmp(action, "dump") == 0;
    /* stop/dump carry the session options too: output-shaping ones (title, include, ...) apply at dump time. */
    if (writes && a->profiling[0] && append(out, outlen, a->profiling, NULL)) return -1;
    if (!writes) {
        /* status and version need only the log level, so their messages obey -L like the others. */
        const char *level = find_option(a->profiling, "loglevel=");
        if (level) {
            char token[64];
            snprintf(token, sizeof(token), "%.*s", (int)strcspn(level, ","), level);
            if (append(out, outlen, token, NULL)) return -1;
        }
    }
    if (writes && a->format[0] && append(out, outlen, a->format, NULL)) return -1;
    if (strcmp(action, "start") == 0 && a->start_timeout_s > 0) {
        char seconds[16];
        snprintf(seconds, sizeof(seconds), "%d", a->start_timeout_s);
        if (append(out, outlen, "timeout", seconds)) return -1;
    }
    bool starts = strcmp(action, "start") == 0 || strcmp(action, "resume") == 0;
    if (starts && a->fdtransfer_name[0] && append(out, outlen, "fdtransfer", a->fdtransfer_name)) return -1;
    if (file && *file && append(out, outlen, "file", file)) return -1;
    if (log && *log && append(out, outlen, "log", log)) return -1;
    return 0;
}
