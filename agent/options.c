/*
 * options: a token-by-token parser over the option table (options_table.c: names, value kinds, flags,
 * formats and the values of choice options). Each token is "name" or "name=value"; every error names the
 * token, the value and what would have been accepted, because the user sees nothing else.
 */
#include "options.h"

#include "errmsg.h"
#include "filepath.h"
#include "log.h"
#include "method_target.h"
#include "options_table.h"
#include "perf_events.h"
#include "thread_state.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const known_events[] = {"cpu", "ctimer", "itimer", "wall", "nativemem", "nativelock"};
#define KNOWN_EVENTS_TEXT \
    "cpu, ctimer, itimer, wall, nativemem, nativelock, a perf event: " PERF_EVENTS_TEXT ", or Java methods to instrument: pkg.Class.method"

void options_init(prof_options *o) {
    memset(o, 0, sizeof(*o));
    strcpy(o->event, "cpu");
    o->jstackdepth = OPTIONS_DEFAULT_JSTACKDEPTH;
    o->log_level = LOG_LEVEL_UNSET;   /* warn on stderr, info into a log= file */
    o->chunk_size = OPTIONS_DEFAULT_CHUNK_SIZE;
    o->chunk_time_ns = OPTIONS_DEFAULT_CHUNK_TIME_NS;
    o->nativemem = -1;
    o->nativelock = -1;
}


int options_parse_duration(const char *s, uint64_t bare_unit_ns, uint64_t *out_ns) {
    if (!s || *s < '0' || *s > '9') return -1;
    errno = 0;
    char *end;
    unsigned long long n = strtoull(s, &end, 10);
    if (errno) return -1;
    uint64_t unit;
    if (*end == 0) unit = bare_unit_ns;
    else if (strcmp(end, "ns") == 0) unit = 1;
    else if (strcmp(end, "us") == 0) unit = 1000;
    else if (strcmp(end, "ms") == 0) unit = 1000000;
    else if (strcmp(end, "s") == 0) unit = 1000000000;
    else return -1;
    if (n > UINT64_MAX / unit) return -1;
    *out_ns = (uint64_t)n * unit;
    return 0;
}

int options_parse_size(const char *s, uint64_t *out) {
    if (!s || *s < '0' || *s > '9') return -1;
    errno = 0;
    char *end;
    unsigned long long n = strtoull(s, &end, 10);
    if (errno) return -1;
    int shift;
    if (*end == 0) shift = 0;
    else if (end[1] != 0) return -1;
    else if (*end == 'k' || *end == 'K') shift = 10;
    else if (*end == 'm' || *end == 'M') shift = 20;
    else if (*end == 'g' || *end == 'G') shift = 30;
    else return -1;
    if (n > (UINT64_MAX >> shift)) return -1;
    *out = (uint64_t)n << shift;
    return 0;
}

/* chunktime: like interval's durations, plus m and h; a bare number is seconds. */
static int parse_chunk_time(const char *s, uint64_t *out_ns) {
    if (!s) return -1;
    size_t n = strlen(s);
    if (n > 1 && (s[n - 1] == 'm' || s[n - 1] == 'h') && s[n - 2] >= '0' && s[n - 2] <= '9') {
        char digits[32];
        if (n >= sizeof(digits)) return -1;
        memcpy(digits, s, n - 1);
        digits[n - 1] = 0;
        uint64_t seconds;
        if (options_parse_duration(digits, 1, &seconds)) return -1;   /* digits only: the bare unit */
        uint64_t unit = s[n - 1] == 'm' ? 60 : 3600;
        if (seconds > UINT64_MAX / unit / 1000000000ULL) return -1;
        *out_ns = seconds * unit * 1000000000ULL;
        return 0;
    }
    return options_parse_duration(s, 1000000000ULL, out_ns);
}

/* A whole decimal number in [min, max]. */
static int parse_int(const char *s, long min, long max, int *out) {
    if (!s || !*s) return -1;
    errno = 0;
    char *end;
    long v = strtol(s, &end, 10);
    if (errno || *end || v < min || v > max) return -1;
    *out = (int)v;
    return 0;
}

static int copy_value(char *dst, size_t cap, const char *name, const char *value, char *err, size_t errlen) {
    if (!value || !*value) return errmsg_fail(err, errlen, "option '%s' needs a value: %s=...", name, name);
    if (strlen(value) >= cap)
        return errmsg_fail(err, errlen, "option '%s': value '%.40s...' is longer than %zu characters", name, value, cap - 1);
    strcpy(dst, value);
    return 0;
}

static int add_filter(char list[][256], int *count, const char *name, const char *value, char *err,
                      size_t errlen) {
    if (*count >= OPTIONS_MAX_FILTERS)
        return errmsg_fail(err, errlen, "option '%s': more than %d patterns", name, OPTIONS_MAX_FILTERS);
    if (copy_value(list[*count], 256, name, value, err, errlen)) return -1;
    const char *inner = strchr(value + 1, '*');
    if (inner && inner[1] != 0)
        return errmsg_fail(err, errlen, "option '%s=%s': '*' is accepted only at the start or the end of a pattern",
                    name, value);
    (*count)++;
    return 0;
}

/* An event kind's own option beside event= (wall, wall=20ms): turns the kind on, with its interval when
 * given. Each kind parses its value here, as its unit is its own (a duration for wall). */
static int set_extra_event(prof_options *o, event_kind kind, const char *value, char *err, size_t errlen) {
    uint64_t interval = 0;
    switch (kind) {
    case EVENT_WALL:
        if (value && (options_parse_duration(value, 1, &interval) || interval == 0))
            return errmsg_fail(err, errlen, "option 'wall=%s': expected a positive duration such as 50ms, 200us, "
                               "1s (or no value: the default 50ms)", value);
        break;
    case EVENT_NATIVEMEM:
        /* Bytes, k/m/g; 0 or no value: every call (async-profiler's default). Kept in its own field: 0 is a
         * real interval here, not "the engine's default". */
        if (value && options_parse_size(value, &interval))
            return errmsg_fail(err, errlen, "option 'nativemem=%s': expected a number of bytes with an optional k, "
                               "m or g suffix, such as 512k (0: every allocation)", value);
        o->nativemem = interval > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)interval;
        interval = 0;
        break;
    case EVENT_NATIVELOCK:
        if (value && options_parse_duration(value, 1, &interval))
            return errmsg_fail(err, errlen, "option 'nativelock=%s': expected a duration such as 10us, 1ms, 1000 "
                               "(ns; 0: every contended wait)", value);
        o->nativelock = !value ? OPTIONS_DEFAULT_NATIVELOCK_NS : interval > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)interval;
        interval = 0;
        break;
    default:
        return errmsg_fail(err, errlen, "option '%s': not available in this build", event_kind_name(kind));
    }
    o->extra_events[kind] = true;
    o->extra_intervals[kind] = interval;
    return 0;
}

/* filter=120-127;132 (async-profiler's ids and ranges; ';' between them, as ',' separates options). */
static int parse_tid_filter(prof_options *o, const char *value, char *err, size_t errlen) {
    const char *p = value ? value : "";
    o->tid_range_count = 0;
    while (*p) {
        char *end;
        errno = 0;
        unsigned long lo = strtoul(p, &end, 10), hi = lo;
        bool ok = end != p && *p >= '0' && *p <= '9' && errno == 0 && lo <= UINT32_MAX;
        if (ok && *end == '-') {
            const char *q = end + 1;
            hi = strtoul(q, &end, 10);
            ok = end != q && *q >= '0' && *q <= '9' && errno == 0 && hi <= UINT32_MAX && hi >= lo;
        }
        ok = ok && (*end == 0 || *end == ';') && o->tid_range_count < OPTIONS_MAX_TID_RANGES;
        if (!ok)
            return errmsg_fail(err, errlen, "option 'filter=%s': expected thread ids and ranges separated by ';' "
                               "(at most %d), such as filter=120-127;132", value ? value : "", OPTIONS_MAX_TID_RANGES);
        o->tid_ranges[o->tid_range_count][0] = (uint32_t)lo;
        o->tid_ranges[o->tid_range_count][1] = (uint32_t)hi;
        o->tid_range_count++;
        p = *end ? end + 1 : end;
    }
    if (!o->tid_range_count)
        return errmsg_fail(err, errlen, "option 'filter' needs thread ids, such as filter=120-127;132");
    return 0;
}

event_kind options_event_kind(const char *event) {
    int kind = event_kind_find(event);
    return kind == EVENT_WALL || kind == EVENT_NATIVEMEM || kind == EVENT_NATIVELOCK ? (event_kind)kind : EVENT_CPU;
}

/* nativemem / nativelock without event=: the session records that kind (first), as async-profiler's
 * --nativemem alone does; with event= naming another kind, beside it. event=nativemem alone: every call. */
static void settle_native_events(prof_options *o) {
    static const event_kind native[] = {EVENT_NATIVEMEM, EVENT_NATIVELOCK};
    for (size_t i = 0; i < 2; i++) {
        event_kind k = native[i];
        bool first = strcmp(o->event, event_kind_name(k)) == 0;
        if (o->extra_events[k] && !o->event_given && !first && strcmp(o->event, "cpu") == 0) {
            strcpy(o->event, event_kind_name(k));
            first = true;
        }
        if (first) o->extra_events[k] = false;
    }
    if (strcmp(o->event, "nativelock") == 0 && o->nativelock < 0) o->nativelock = OPTIONS_DEFAULT_NATIVELOCK_NS;
}

static int set_event(prof_options *o, const char *value, char *err, size_t errlen) {
    if (!value || !*value) return errmsg_fail(err, errlen, "option 'event' needs a value; accepted: " KNOWN_EVENTS_TEXT);
    o->event_given = true;
    for (size_t i = 0; i < sizeof(known_events) / sizeof(known_events[0]); i++) {
        if (strcmp(value, known_events[i]) == 0) {
            strcpy(o->event, value);
            return 0;
        }
    }
    if (method_target_is_target(value)) {
        /* Methods to instrument: refused now when malformed, kept as written for the engine. */
        method_target t;
        if (method_target_parse(value, &t, err, errlen)) return -1;
        if (strlen(value) >= sizeof(o->event))
            return errmsg_fail(err, errlen, "option 'event=%.40s...': longer than %zu characters", value, sizeof(o->event) - 1);
        strcpy(o->event, value);
        return 0;
    }
    const perf_event_kind *perf = perf_events_find(value);
    if (perf) {
        /* Aliases are stored under perf's full name, which is what the engine and the report show. */
        strcpy(o->event, perf->name);
        return 0;
    }
    return errmsg_fail(err, errlen, "option 'event=%s': unknown event '%s'; accepted: " KNOWN_EVENTS_TEXT, value, value);
}

/* A choice option (cstack, loglevel): one of the row's values; the message lists the table's. */
static int set_choice(prof_options *o, const options_spec *spec, const char *value, char *err, size_t errlen) {
    for (const options_choice *c = spec->choices; value && c->name; c++) {
        if (strcmp(value, c->name) == 0 || (c->alias && strcmp(value, c->alias) == 0)) {
            *(int *)((char *)o + spec->field) = c->value;
            return 0;
        }
    }
    char accepted[256];
    options_table_choices(spec, accepted, sizeof(accepted));
    return errmsg_fail(err, errlen, "option '%s=%s': accepted: %s", spec->name, value ? value : "", accepted);
}

static int parse_action(const char *name, prof_action *out) {
    static const char *const names[] = {"", "start", "resume", "stop", "dump", "status", "version"};
    for (int a = ACTION_START; a <= ACTION_VERSION; a++) {
        if (strcmp(name, names[a]) == 0) {
            *out = (prof_action)a;
            return 0;
        }
    }
    return -1;
}

/* Parses "traces" / "traces=N" (and flat): a bare name means the default count. */
static int parse_count_format(const char *name, const char *value, int *out, char *err, size_t errlen) {
    if (!value) {
        *out = OPTIONS_DEFAULT_TOP;
        return 0;
    }
    if (parse_int(value, 1, 1000000, out))
        return errmsg_fail(err, errlen, "option '%s=%s': expected a whole number from 1 to 1000000", name, value);
    return 0;
}

int options_parse_percent(const char *s, double *out) {
    char *end = NULL;
    errno = 0;
    /* Digits and a point only: strtod alone would also take "1e1", "0x1p3", "inf". */
    bool decimal = s && *s && s[strspn(s, "0123456789.")] == 0;
    double v = decimal ? strtod(s, &end) : -1;
    if (errno || !end || end == s || *end || !(v >= 0 && v <= 100)) return -1;
    *out = v;
    return 0;
}

/* minwidth=PERCENT: a decimal number from 0 to 100, as async-profiler spells it (no '%' sign). */
static int parse_minwidth(prof_options *o, const char *value, char *err, size_t errlen) {
    if (options_parse_percent(value, &o->minwidth))
        return errmsg_fail(err, errlen, "option 'minwidth=%s': expected a percent from 0 to 100, such as 0.5",
                    value ? value : "");
    return 0;
}

static int parse_token(prof_options *o, char *tok, char *err, size_t errlen) {
    char *value = strchr(tok, '=');
    if (value) *value++ = 0;
    const char *name = tok;
    prof_action action;
    const options_spec *spec = options_table_find(name);
    if (!spec) {
        char accepted[1024];
        options_table_accepted(accepted, sizeof(accepted));
        return errmsg_fail(err, errlen, "unknown option '%s'; accepted: %s", name, accepted);
    }
    if ((spec->kind == OPTION_ACTION || spec->kind == OPTION_FLAG) && value)
        return errmsg_fail(err, errlen, "option '%s' takes no value (got '%s')", name, value);
    if (parse_action(name, &action) == 0) {
        if (o->action != ACTION_NONE && o->action != action)
            return errmsg_fail(err, errlen, "options '%s' and '%s' conflict: give one action", options_action_name(o->action),
                        name);
        o->action = action;
        return 0;
    }
    if (spec->kind == OPTION_FLAG && spec->field) {
        *(bool *)((char *)o + spec->field) = true;
        return 0;
    }
    if (spec->kind == OPTION_CHOICE) return set_choice(o, spec, value, err, errlen);
    if (spec->kind == OPTION_FLAG && spec->format) {
        o->format = (prof_format)spec->format;
        return 0;
    }
    if (strcmp(name, "samples") == 0) {
        o->total = false;
        return 0;
    }
    if (strcmp(name, "event") == 0) return set_event(o, value, err, errlen);
    if (strcmp(name, "filter") == 0) return parse_tid_filter(o, value, err, errlen);
    if (strcmp(name, "state") == 0) {
        if (!(o->state_mask = thread_state_parse_list(value)))
            return errmsg_fail(err, errlen, "option 'state=%s': expected thread states separated by ';' (any case, "
                               "STATE_ optional, a prefix enough): runnable, sleeping, in_object_wait, parked, "
                               "blocked_on_monitor_enter, in_native, syscall, default", value ? value : "");
        return 0;
    }
    int kind = event_kind_find(name);
    if (kind > EVENT_CPU) return set_extra_event(o, (event_kind)kind, value, err, errlen);
    if (strcmp(name, "interval") == 0) {
        o->interval_has_unit = value && value[strspn(value, "0123456789")] != 0;
        if (!value || options_parse_duration(value, 1, &o->interval_ns) || o->interval_ns == 0)
            return errmsg_fail(err, errlen,
                        "option 'interval=%s': expected a positive duration such as 10ms, 500us, 1000000 "
                        "(ns), 1s",
                        value ? value : "");
        return 0;
    }
    if (strcmp(name, "file") == 0) {
        char expanded[sizeof(o->file) + 64];
        if (copy_value(o->file, sizeof(o->file), name, value, err, errlen)) return -1;
        /* Refuse a bad pattern now, not when the profile is due. */
        return filepath_expand(value, 1, 0, expanded, sizeof(expanded), err, errlen);
    }
    if (strcmp(name, "chunksize") == 0) {
        if (options_parse_size(value, &o->chunk_size) || o->chunk_size < OPTIONS_MIN_CHUNK_SIZE)
            return errmsg_fail(err, errlen, "option 'chunksize=%s': expected a size in bytes of at least 1k, with an "
                        "optional k, m or g suffix, such as 100m", value ? value : "");
        return 0;
    }
    if (strcmp(name, "chunktime") == 0) {
        if (parse_chunk_time(value, &o->chunk_time_ns) || o->chunk_time_ns < OPTIONS_MIN_CHUNK_TIME_NS)
            return errmsg_fail(err, errlen, "option 'chunktime=%s': expected a duration of at least 1s, such as 10s, "
                        "5m, 1h (a bare number is seconds)", value ? value : "");
        return 0;
    }
    if (strcmp(name, "minwidth") == 0) return parse_minwidth(o, value, err, errlen);
    if (strcmp(name, "traces") == 0 || strcmp(name, "flat") == 0) {
        o->format = FORMAT_TEXT;
        return parse_count_format(name, value, name[0] == 't' ? &o->traces : &o->flat, err, errlen);
    }
    if (strcmp(name, "jstackdepth") == 0) {
        if (parse_int(value, 1, OPTIONS_MAX_JSTACKDEPTH, &o->jstackdepth))
            return errmsg_fail(err, errlen, "option 'jstackdepth=%s': expected a whole number from 1 to %d",
                        value ? value : "", OPTIONS_MAX_JSTACKDEPTH);
        return 0;
    }
    if (strcmp(name, "include") == 0) return add_filter(o->include, &o->include_count, name, value, err, errlen);
    if (strcmp(name, "exclude") == 0) return add_filter(o->exclude, &o->exclude_count, name, value, err, errlen);
    if (strcmp(name, "title") == 0) return copy_value(o->title, sizeof(o->title), name, value, err, errlen);
    if (strcmp(name, "timeout") == 0) {
        uint64_t ns;
        if (!value || options_parse_duration(value, 1000000000ULL, &ns) || ns < 1000000000ULL ||
            ns / 1000000000ULL > 1000000000ULL)
            return errmsg_fail(err, errlen, "option 'timeout=%s': expected seconds (a whole number >= 1, or with a "
                        "suffix such as 30s)", value ? value : "");
        o->timeout_s = (int)(ns / 1000000000ULL);
        return 0;
    }
    if (strcmp(name, "log") == 0) return copy_value(o->log_file, sizeof(o->log_file), name, value, err, errlen);
    return errmsg_fail(err, errlen, "option '%s': no parser for this table row", name);   /* cannot happen */
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
    if (rc == 0) settle_native_events(o);
    /* Instrumentation counts calls: "interval=10ms" would silently mean every 10 millionth call. */
    if (rc == 0 && o->interval_has_unit && method_target_is_target(o->event))
        rc = errmsg_fail(err, errlen, "option 'interval': with event=%s the interval is a number of calls, not a duration; "
                  "such as interval=100 (every 100th call)", o->event);
    return rc;
}

prof_format options_effective_format(const prof_options *o) {
    if (o->format != FORMAT_AUTO) return o->format;
    static const char *const collapsed_ext[] = {".collapsed", ".csv", ".folded"};
    for (size_t i = 0; i < sizeof(collapsed_ext) / sizeof(collapsed_ext[0]); i++) {
        if (filepath_ends_with(o->file, collapsed_ext[i])) return FORMAT_COLLAPSED;
    }
    if (filepath_ends_with(o->file, ".html") || filepath_ends_with(o->file, ".htm")) return FORMAT_FLAMEGRAPH;
    if (filepath_ends_with(o->file, ".jfr")) return FORMAT_JFR;
    return FORMAT_TEXT;
}

const char *options_action_name(prof_action a) {
    static const char *const names[] = {"none", "start", "resume", "stop", "dump", "status", "version"};
    return (unsigned)a <= ACTION_VERSION ? names[a] : "?";
}

const char *options_format_name(prof_format f) {
    static const char *const names[] = {"auto", "collapsed", "text", "flamegraph", "tree", "jfr"};
    return (unsigned)f <= FORMAT_JFR ? names[f] : "?";
}

const char *options_cstack_name(prof_cstack c) {
    static const char *const names[] = {"default", "no", "fp", "dwarf", "vm"};
    return (unsigned)c <= CSTACK_VM ? names[c] : "?";
}
