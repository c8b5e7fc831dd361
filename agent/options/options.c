/*
 * options: the agent's grammar: comma-separated tokens, each "name" or "name=value", looked up in the
 * option table (options_table.c) and parsed by its row's value kind (options_kinds.c); here only what is
 * not one option's value: actions, and checks across options. Every error names the token, the value and
 * what would have been accepted, because the user sees nothing else.
 */
#include "options.h"

#include "errmsg.h"
#include "filepath.h"
#include "log.h"
#include "method_target.h"
#include "options_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


void options_init(prof_options *o) {
    memset(o, 0, sizeof(*o));
    strcpy(o->event, "cpu");
    o->jstackdepth = OPTIONS_DEFAULT_JSTACKDEPTH;
    o->log_level = LOG_LEVEL_UNSET;   /* warn on stderr, info into a log= file */
    o->chunk_size = OPTIONS_DEFAULT_CHUNK_SIZE;
    o->chunk_time_ns = OPTIONS_DEFAULT_CHUNK_TIME_NS;
    o->alloc_bytes = OPTIONS_DEFAULT_ALLOC_BYTES;
    o->proc_s = -1;
    o->lock_ns = OPTIONS_DEFAULT_LOCK_NS;
    o->nativelock = OPTIONS_DEFAULT_NATIVELOCK_NS;   /* nativelock bare = 10us; nativemem 0 = every call */
    o->target_cpu = -1;
}

/* nativemem / nativelock without event=: the session records that kind (first), as
 * async-profiler's --nativemem alone does; with event= naming another kind, beside it. */
static void settle_native_events(prof_options *o) {
    static const event_kind native[] = {EVENT_NATIVEMEM, EVENT_NATIVELOCK};
    for (size_t i = 0; i < sizeof(native) / sizeof(native[0]); i++) {
        event_kind k = native[i];
        bool first = strcmp(o->event, event_kind_name(k)) == 0;
        if (o->extra_events[k] && !o->event_given && !first && strcmp(o->event, "cpu") == 0) {
            strcpy(o->event, event_kind_name(k));
            first = true;
        }
        if (first) o->extra_events[k] = false;
    }
}


static int parse_action(const char *name, prof_action *out) {
    static const char *const names[] = {"", "start", "resume", "stop", "dump", "status", "version", "metrics"};
    for (int a = ACTION_START; a <= ACTION_METRICS; a++) {
        if (strcmp(name, names[a]) == 0) {
            *out = (prof_action)a;
            return 0;
        }
    }
    return -1;
}

/* async-profiler's options that libprof does not have, and what to do with each. An option accepted and then
 * not acted on would leave the user believing the profile holds what it does not: each is refused, saying
 * why and what to write instead (none is ignored now; the machinery stays for a row whose 'instead' is
 * NULL, noted in options.h: ignored). */
static const struct {
    const char *name, *instead;   /* instead: NULL to ignore it */
} async_profiler_only[] = {
    {"sched", "libprof does not add a frame for the thread's scheduling policy; threads separates threads"},
    {"signal", "libprof chooses its profiling signal itself (SIGPROF, or another when the application takes it)"},
    {"tlab", "libprof samples allocations through the JVM's own sampler (JDK 11+), not TLAB events: alloc=BYTES"},
    {"norm", "libprof does not rename lambda and generated classes"},
    {"memlimit", "libprof sizes its stack storage itself and counts the samples that do not fit (metrics, text "
                 "report)"},
    {"mcache", "libprof has no method cache to size"},
    {"list", "jprof list <pid> prints the events this JVM accepts"},
};

void options_note_ignored(prof_options *o, const char *prefix, const char *text, size_t n) {
    char item[64];
    snprintf(item, sizeof(item), "%s%.*s", prefix, (int)n, text);
    size_t used = strlen(o->ignored);
    if (!strstr(o->ignored, item) && used + strlen(item) + 2 < sizeof(o->ignored))
        snprintf(o->ignored + used, sizeof(o->ignored) - used, "%s%s", used ? " " : "", item);
}

const char *options_async_profiler_refusal(const char *name) {
    for (size_t i = 0; i < sizeof(async_profiler_only) / sizeof(async_profiler_only[0]); i++)
        if (strcmp(name, async_profiler_only[i].name) == 0) return async_profiler_only[i].instead;
    return NULL;
}

/* An async-profiler option of the table above: ignored (0, noted in o->ignored), refused (-1, err says what
 * to write instead), or 1 when it is none of them. */
static int async_profiler_option(prof_options *o, const char *name, char *err, size_t errlen) {
    for (size_t i = 0; i < sizeof(async_profiler_only) / sizeof(async_profiler_only[0]); i++) {
        if (strcmp(name, async_profiler_only[i].name) != 0) continue;
        if (async_profiler_only[i].instead)
            return errmsg_fail(err, errlen, "option '%s' (async-profiler's) is not supported: %s", name,
                               async_profiler_only[i].instead);
        options_note_ignored(o, "", name, strlen(name));
        return 0;
    }
    return 1;
}

static int parse_token(prof_options *o, char *tok, char *err, size_t errlen) {
    char *value = strchr(tok, '=');
    if (value) *value++ = 0;
    const char *name = tok;
    /* A bare 'cpu' is async-profiler's spelling of event=cpu (start,cpu,alloc,file=...). */
    if (strcmp(name, "cpu") == 0) {
        if (value)
            return errmsg_fail(err, errlen, "option 'cpu' takes no value (it means event=cpu): the interval is "
                               "interval=%s", value);
        char event[] = "event=cpu";
        return parse_token(o, event, err, errlen);
    }
    /* A bare 'jfrsync' is async-profiler's jfrsync=default. */
    if (strcmp(name, "jfrsync") == 0 && !value) {
        char jfrsync[] = "jfrsync=default";
        return parse_token(o, jfrsync, err, errlen);
    }
    prof_action action;
    const options_spec *spec = options_table_find(name);
    int foreign = spec ? 1 : async_profiler_option(o, name, err, errlen);
    if (foreign <= 0) return foreign;
    /* Only the last would count: several events are event=cpu,wall (or wall=20ms beside event=cpu). */
    if (spec && spec->kind == OPTION_EVENT && o->event_given)
        return errmsg_fail(err, errlen, "option 'event' given twice ('%s', then '%s'): for several events write "
                           "event=%s,%s", o->event, value ? value : "", o->event, value ? value : "");
    if (!spec) {
        char accepted[1024];
        options_table_accepted(accepted, sizeof(accepted));
        return errmsg_fail(err, errlen, "unknown option '%s'; accepted: %s", name, accepted);
    }
    /* An action's value is refused by its kind's parser, like a flag's. */
    if (spec->kind != OPTION_ACTION || value || parse_action(name, &action))
        return options_table_apply(spec, name, value, o, err, errlen);
    if (o->action != ACTION_NONE && o->action != action)
        return errmsg_fail(err, errlen, "options '%s' and '%s' conflict: give one action",
                           options_action_name(o->action), name);
    o->action = action;
    return 0;
}

/* all (async-profiler's): every event the session does not name yet, at its default interval, with live
 * objects; the session's event stays the one event= gave, or cpu. Native memory is sampled every 512 KiB, as
 * async-profiler's all does (nativemem alone records every call). */
static void settle_all(prof_options *o) {
    static const event_kind beside[] = {EVENT_WALL, EVENT_ALLOC, EVENT_LOCK, EVENT_NATIVEMEM, EVENT_NATIVELOCK};
    if (!o->all) return;
    for (size_t i = 0; i < sizeof(beside) / sizeof(beside[0]); i++) {
        event_kind k = beside[i];
        if (o->extra_events[k] || strcmp(o->event, event_kind_name(k)) == 0) continue;
        o->extra_events[k] = true;
        if (k == EVENT_NATIVEMEM) o->nativemem = OPTIONS_DEFAULT_ALLOC_BYTES;
    }
    o->live = true;
    o->event_given = true;
}

int options_parse(const char *text, prof_options *o, char *err, size_t errlen) {
    options_init(o);
    if (!text || !*text) return 0;
    char *copy = strdup(text);
    if (!copy) return errmsg_fail(err, errlen, "out of memory parsing options");
    int rc = 0;
    char *save = NULL;
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if ((rc = parse_token(o, tok, err, errlen)) != 0) break;
    }
    free(copy);
    if (rc == 0) settle_all(o);
    /* async-profiler's rule: without event=, the first other event given is the session's event
     * (start,alloc profiles allocations only; event=cpu,alloc both). */
    for (int k = EVENT_CPU + 1; rc == 0 && !o->event_given && k < EVENT_KIND_COUNT; k++) {
        if (!o->extra_events[k]) continue;
        snprintf(o->event, sizeof(o->event), "%s", event_kind_name((event_kind)k));
        o->extra_events[k] = false;
        if (k == EVENT_WALL) o->interval_ns = o->extra_intervals[k] ? o->extra_intervals[k] : o->interval_ns;
        break;
    }
    /* event=lock,lock=1ms (async-profiler's way to give an event's interval): the option named after the
     * session's own event sets its interval rather than a second engine (alloc= and lock= have their own
     * fields; wall's goes to interval=). */
    for (int k = EVENT_CPU + 1; rc == 0 && o->event_given && k < EVENT_KIND_COUNT; k++) {
        if (!o->extra_events[k] || strcmp(o->event, event_kind_name((event_kind)k)) != 0) continue;
        o->extra_events[k] = false;
        if (k == EVENT_WALL && o->extra_intervals[k]) o->interval_ns = o->extra_intervals[k];
    }
    if (rc == 0) settle_native_events(o);
    if (rc == 0 && (o->features & PROF_FEATURE_SIGTRAP) && (o->features & PROF_FEATURE_NOSIGTRAP))
        rc = errmsg_fail(err, errlen, "option 'features': sigtrap and nosigtrap conflict: give one");
    if (rc == 0 && options_jfr_flags(o) < 0)
        rc = errmsg_fail(err, errlen, "option 'jfropts=%s': give async-profiler's bits as a number (1 no OS and JVM "
                         "information events, 8 no CPU load events; 2, 4 and 16 name events libprof does not write; "
                         "256, as 'mem', holds already: libprof's handlers never write the file, a background thread does)", o->jfropts);
    if (rc == 0 && options_loops(o) && (o->timeout_s || o->timeout_clock))
        rc = errmsg_fail(err, errlen, "options 'loop' and 'timeout' conflict: a loop runs until stopped; give one");
    /* A comma cannot be in a value (the grammar splits on it): asprof --title 'a, b' passes it as "&#44;". */
    for (char *c; rc == 0 && (c = strstr(o->title, "&#44;"));) {
        *c = ',';
        memmove(c + 1, c + 5, strlen(c + 5) + 1);
    }
    /* Refused here, before the JVM runs, rather than when the session starts (after VM init the JVM would
     * run on unprofiled): both rewrite the methods they select, and a class takes one rewrite only. */
    if (rc == 0 && method_target_is_target(o->event) && o->extra_events[EVENT_TRACE])
        rc = errmsg_fail(err, errlen, "event=%s (instrumentation) cannot be recorded beside trace=: give one",
                         o->event);
    if (rc == 0 && o->proc_s > 0 && o->action != ACTION_STOP && o->action != ACTION_DUMP &&
        options_effective_format(o) != FORMAT_JFR)
        rc = errmsg_fail(err, errlen, "option 'proc': Process sampling requires JFR output format: give file=NAME.jfr "
                         "(or jfr)");
    int64_t limits[OPTIONS_RATE_CATEGORIES];
    if (rc == 0 && o->ratelimit[0]) rc = options_rate_limits(o->ratelimit, limits, err, errlen);
    /* event=trace (or the trace kind chosen for an output) needs the methods; trace= always has them. */
    if (rc == 0 && strcmp(o->event, "trace") == 0 && o->trace_count == 0 && o->action != ACTION_STOP &&
        o->action != ACTION_DUMP)
        rc = errmsg_fail(err, errlen, "event=trace: name the methods with trace=pkg.Class.method[:threshold]");
    /* Instrumentation counts calls: "interval=10ms" would silently mean every 10 millionth call. */
    if (rc == 0 && o->interval_has_unit && method_target_is_target(o->event))
        rc = errmsg_fail(err, errlen, "option 'interval': with event=%s the interval is a number of calls, not a duration; "
                  "such as interval=100 (every 100th call)", o->event);
    return rc;
}

int options_proc_interval(const prof_options *o) {
    if (o->proc_s >= 0) return o->proc_s;
    return o->all && options_effective_format(o) == FORMAT_JFR ? OPTIONS_DEFAULT_PROC_S : 0;
}

prof_format options_effective_format(const prof_options *o) {
    if (o->format != FORMAT_AUTO) return o->format;
    static const char *const collapsed_ext[] = {".collapsed", ".csv", ".folded"};
    for (size_t i = 0; i < sizeof(collapsed_ext) / sizeof(collapsed_ext[0]); i++) {
        if (filepath_ends_with(o->file, collapsed_ext[i])) return FORMAT_COLLAPSED;
    }
    if (filepath_ends_with(o->file, ".html") || filepath_ends_with(o->file, ".htm")) return FORMAT_FLAMEGRAPH;
    if (filepath_ends_with(o->file, ".jfr")) return FORMAT_JFR;
    if (filepath_ends_with(o->file, ".pb.gz") || filepath_ends_with(o->file, ".pprof")) return FORMAT_PPROF;
    if (filepath_ends_with(o->file, ".speedscope.json")) return FORMAT_SPEEDSCOPE;
    if (filepath_ends_with(o->file, ".cpuprofile")) return FORMAT_CPUPROFILE;
    if (filepath_ends_with(o->file, ".gecko.json")) return FORMAT_GECKO;
    if (filepath_ends_with(o->file, ".otlp")) return FORMAT_OTLP;
    return FORMAT_TEXT;
}

long options_jfr_flags(const prof_options *o) {
    const char *v = o->jfropts;
    if (!v[0]) return 0;
    if (v[0] >= '0' && v[0] <= '9') {
        char *end;
        unsigned long bits = strtoul(v, &end, 0);
        return *end || bits > 0xffff ? -1 : (long)bits;
    }
    return strcmp(v, "mem") == 0 ? JFR_OPTS_IN_MEMORY : -1;
}

const char *options_action_name(prof_action a) {
    static const char *const names[] = {"none", "start", "resume", "stop", "dump", "status", "version", "metrics"};
    return (unsigned)a <= ACTION_METRICS ? names[a] : "?";
}

const char *options_format_name(prof_format f) {
    static const char *const names[] = {"auto", "collapsed", "text", "flamegraph", "tree", "jfr",
                                        "pprof", "speedscope", "cpuprofile", "gecko", "otlp", "heatmap"};
    return (unsigned)f <= FORMAT_HEATMAP ? names[f] : "?";
}

const char *options_cstack_name(prof_cstack c) {
    static const char *const names[] = {"default", "no", "fp", "dwarf", "vm"};
    return (unsigned)c <= CSTACK_VM ? names[c] : "?";
}

event_kind options_event_kind(const char *event) {
    int kind = event_kind_find(event);
    return kind >= 0 && kind < EVENT_KIND_COUNT ? (event_kind)kind : EVENT_CPU;
}
