/*
 * options_kinds: one parser per value kind of the option table (options_table.h), each with the one
 * message that names the option as the user spelled it, the bad value and what the row accepts (its
 * limits come from the row). The agent's grammar (options.c) and jfrconv call options_table_apply, so an
 * option of an existing kind needs no code, only its row.
 */
#include "options_table.h"

#include "clock_time.h"
#include "errmsg.h"
#include "event_names.h"
#include "filepath.h"
#include "method_target.h"
#include "perf_events.h"
#include "thread_state.h"

#include <errno.h>
#include <limits.h>
#include <regex.h>
#include "trace_target.h"

#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>

static const char *const kind_names[OPTION_KIND_COUNT] = {
    [OPTION_ACTION] = "action",     [OPTION_FLAG] = "flag",       [OPTION_COUNT] = "count",
    [OPTION_DURATION] = "duration", [OPTION_SIZE] = "size",       [OPTION_PERCENT] = "percent",
    [OPTION_CHOICE] = "choice",     [OPTION_EVENT] = "event",     [OPTION_TEXT] = "text",
    [OPTION_PATTERN] = "pattern",   [OPTION_FILE] = "file",       [OPTION_TIME] = "time",
    [OPTION_STATES] = "states",     [OPTION_CHOICE_SET] = "choice set", [OPTION_TIDS] = "thread ids", [OPTION_REGEX] = "regex",
    [OPTION_NUMBER] = "number",   [OPTION_TRACE] = "trace target",
};

const char *options_table_kind_name(options_kind kind) {
    return (unsigned)kind < OPTION_KIND_COUNT && kind_names[kind] ? kind_names[kind] : NULL;
}

static const struct {
    const char *suffix;
    uint64_t ns;
} duration_units[] = {{"ns", 1}, {"us", 1000}, {"ms", 1000000}, {"s", 1000000000ULL},
                      {"m", 60000000000ULL}, {"h", 3600000000000ULL}, {"d", 86400000000000ULL}};
#define DURATION_UNITS (sizeof(duration_units) / sizeof(duration_units[0]))
#define SECOND_NS 1000000000ULL

/* Leading decimal digits as a uint64 ('end' after them); -1 when there are none or too many. */
static int parse_digits(const char *s, char **end, unsigned long long *out) {
    if (!s || *s < '0' || *s > '9') return -1;
    errno = 0;
    *out = strtoull(s, end, 10);
    return errno ? -1 : 0;
}

/* The units async-profiler reads: a sampling interval's "m" is milliseconds (interval=1m, lock=5m), a long
 * duration's minutes (timeout=5m, loop=1m); any case. A sampling interval is one whose bare number is below
 * a second (ns, us, ms). */
int options_parse_duration(const char *s, uint64_t bare_unit_ns, uint64_t *out_ns) {
    char *end;
    unsigned long long n;
    if (parse_digits(s, &end, &n)) return -1;
    uint64_t unit = *end == 0 ? bare_unit_ns : 0;
    if (!unit && bare_unit_ns < SECOND_NS && strcasecmp(end, "m") == 0) unit = 1000000;
    /* A bare number of nanoseconds is also a count (an allocation interval in bytes: -e alloc -i 512k). */
    if (!unit && bare_unit_ns == 1 && end[0] && !end[1]) {
        char c = (char)(end[0] | 0x20);
        unit = c == 'b' ? 1 : c == 'k' ? 1024 : c == 'g' ? 1ULL << 30 : 0;
    }
    for (size_t i = 0; i < DURATION_UNITS && !unit; i++) {
        if (strcasecmp(end, duration_units[i].suffix) == 0) unit = duration_units[i].ns;
    }
    if (!unit || n > UINT64_MAX / unit) return -1;
    *out_ns = (uint64_t)n * unit;
    return 0;
}

int options_parse_size(const char *s, uint64_t *out) {
    char *end;
    unsigned long long n;
    if (parse_digits(s, &end, &n)) return -1;
    const char *suffix = strchr("kKmMgG", *end);
    if (*end && (!suffix || end[1])) return -1;
    int shift = *end ? 10 * (1 + (int)(suffix - "kKmMgG") / 2) : 0;
    if (n > (UINT64_MAX >> shift)) return -1;
    *out = (uint64_t)n << shift;
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

/* A duration in the largest unit that divides it ("1s", "1500ms"), for messages. */
static void duration_text(uint64_t ns, char *buf, size_t len) {
    size_t u = DURATION_UNITS - 1;
    while (u > 0 && ns % duration_units[u].ns) u--;
    snprintf(buf, len, "%llu%s", (unsigned long long)(ns / duration_units[u].ns), duration_units[u].suffix);
}

static const char *bare_unit_name(uint64_t unit_ns) {
    for (size_t i = 0; i < DURATION_UNITS; i++) {
        if (duration_units[i].ns == unit_ns) {
            static const char *const names[] = {"nanoseconds", "microseconds", "milliseconds", "seconds",
                                                "minutes", "hours", "days"};
            return names[i];
        }
    }
    return "?";
}

/* The option as the user wrote it with its value, as every message starts: "option 'interval=0x'" for the
 * agent's grammar, "--minwidth '1e1'" for a tool's flag. */
static const char *subject(const char *spelled, const char *value, char *buf, size_t len) {
    if (spelled[0] == '-') snprintf(buf, len, "%s '%s'", spelled, value ? value : "");
    else snprintf(buf, len, "option '%s=%s'", spelled, value ? value : "");
    return buf;
}

static void *field_of(prof_options *o, size_t offset) {
    return (char *)o + offset;
}

static int apply_count(const options_spec *s, const char *spelled, const char *value, prof_options *o, char *err,
                       size_t errlen) {
    int *field = field_of(o, s->field);
    if (!value && s->dflt) {
        *field = s->dflt;
        return 0;
    }
    char *end = NULL;
    unsigned long long n = 0, m = 0;
    bool bad = parse_digits(value, &end, &n) || n < s->min || n > s->max;
    bool slash = !bad && s->slash_field && *end == '/';
    if (slash) bad = parse_digits(end + 1, &end, &m) || m < s->min || m > n;
    if (bad || *end) {
        char what[600];
        return errmsg_fail(err, errlen, "%s: expected a whole number from %llu to %llu%s",
                           subject(spelled, value, what, sizeof(what)), (unsigned long long)s->min,
                           (unsigned long long)s->max, s->slash_field ? ", or N/M with M from 1 to N" : "");
    }
    *field = (int)n;
    if (s->slash_field) *(int *)field_of(o, s->slash_field) = slash ? (int)m : 0;
    return 0;
}

/* timeout=23:00, loop=*:00: a time of day (clock_time.h) in the row's clock field, the duration's cleared. */
static int apply_clock_time(const options_spec *s, const char *spelled, const char *value, prof_options *o,
                            char *err, size_t errlen) {
    uint32_t clock;
    if (clock_time_parse(value, &clock)) {
        char what[600];
        return errmsg_fail(err, errlen,
                           "%s: expected a time of day HH:MM or HH:MM:SS (23:00, 06:30:15), '*' for any hour "
                           "(*:00 every hour, *:*:30 every minute), or a duration such as 30s, 5m, 1h",
                           subject(spelled, value, what, sizeof(what)));
    }
    *(uint32_t *)field_of(o, s->clock_field) = clock;
    if (s->seconds) *(int *)field_of(o, s->field) = 0;
    else *(uint64_t *)field_of(o, s->field) = 0;
    return 0;
}

static int apply_duration(const options_spec *s, const char *spelled, const char *value, prof_options *o,
                          char *err, size_t errlen) {
    if (s->clock_field && value && strchr(value, ':')) return apply_clock_time(s, spelled, value, o, err, errlen);
    uint64_t ns;
    if (!value && s->dflt) {   /* the bare name: its default (proc) */
        ns = (uint64_t)s->dflt * s->unit;
    } else if (options_parse_duration(value, s->unit, &ns) || ns < s->min || (s->max && ns > s->max)) {
        char what[600], min[32], max[48] = "";
        duration_text(s->min, min, sizeof(min));
        if (s->max) {
            snprintf(max, sizeof(max), " and at most ");
            duration_text(s->max, max + strlen(max), sizeof(max) - strlen(max));
        }
        return errmsg_fail(err, errlen,
                           s->unit < SECOND_NS
                               ? "%s: expected a duration of at least %s%s: a whole number with a unit ns, us, ms (or "
                                 "m, as async-profiler reads it), s, such as 10ms, 500us (a bare number is %s)%s"
                               : "%s: expected a duration of at least %s%s: a whole number with a unit s, m "
                                 "(minutes), h or d, such as 30s, 5m, 1h (a bare number is %s)%s",
                           subject(spelled, value, what, sizeof(what)), min, max, bare_unit_name(s->unit),
                           s->clock_field ? ", or a time of day such as 23:00 or *:00 (every hour)" : "");
    }
    if (s->seconds) *(int *)field_of(o, s->field) = (int)(ns / 1000000000ULL);
    else *(uint64_t *)field_of(o, s->field) = ns;
    if (s->clock_field) *(uint32_t *)field_of(o, s->clock_field) = 0;
    if (s->unit_field) *(bool *)field_of(o, s->unit_field) = value && value[strspn(value, "0123456789")] != 0;
    return 0;
}

static int apply_size(const options_spec *s, const char *spelled, const char *value, prof_options *o, char *err,
                      size_t errlen) {
    uint64_t bytes;
    if (options_parse_size(value, &bytes) || bytes < s->min || (s->max && bytes > s->max)) {
        char what[600];
        return errmsg_fail(err, errlen,
                           "%s: expected a size in bytes of at least %llu%s, with an optional k, m or g suffix, "
                           "such as 100m",
                           subject(spelled, value, what, sizeof(what)),
                           (unsigned long long)(s->min % 1024 || !s->min ? s->min : s->min / 1024),
                           s->min % 1024 || !s->min ? "" : "k");
    }
    *(uint64_t *)field_of(o, s->field) = bytes;
    return 0;
}

static int apply_percent(const options_spec *s, const char *spelled, const char *value, prof_options *o, char *err,
                         size_t errlen) {
    if (options_parse_percent(value, field_of(o, s->field))) {
        char what[600];
        return errmsg_fail(err, errlen, "%s: expected a percent from 0 to 100, such as 0.5",
                           subject(spelled, value, what, sizeof(what)));
    }
    return 0;
}

/* A decimal number such as 2.5, at least the row's min; no sign, exponent, infinity or NaN. */
static int apply_number(const options_spec *s, const char *spelled, const char *value, prof_options *o, char *err,
                        size_t errlen) {
    char *end = NULL;
    double n = value && value[strspn(value, "0123456789.")] == 0 && strchr("0123456789", value[0])
                   ? strtod(value, &end) : -1;
    if (!end || *end || n < (double)s->min) {
        char what[600];
        return errmsg_fail(err, errlen, "%s: expected a decimal number of at least %llu, such as 10 or 2.5",
                           subject(spelled, value, what, sizeof(what)), (unsigned long long)s->min);
    }
    *(double *)field_of(o, s->field) = n;
    return 0;
}

/* The choice spelled by the 'len' characters at 'value' (its name or its alias), or NULL. */
static const options_choice *find_choice(const options_spec *s, const char *value, size_t len) {
    for (const options_choice *c = s->choices; value && c->name; c++) {
        /* In any case, as async-profiler takes them (loglevel=INFO). */
        if ((strlen(c->name) == len && strncasecmp(value, c->name, len) == 0) ||
            (c->alias && strlen(c->alias) == len && strncasecmp(value, c->alias, len) == 0))
            return c;
    }
    return NULL;
}

static int apply_choice(const options_spec *s, const char *spelled, const char *value, prof_options *o, char *err,
                        size_t errlen) {
    const options_choice *c = find_choice(s, value, value ? strlen(value) : 0);
    if (c) {
        *(int *)field_of(o, s->field) = c->value;
        return 0;
    }
    char what[600], accepted[256];
    options_table_choices(s, accepted, sizeof(accepted));
    return errmsg_fail(err, errlen, "%s: accepted: %s", subject(spelled, value, what, sizeof(what)), accepted);
}

/* Several choices joined by '+' (async-profiler's separator: ',' separates options); their bits OR-ed. The
 * value replaces the field's set, so the last 'features=' given wins, as for every other option. */
/* async-profiler's stack walker features: 'mixed' is what libprof's cstack=vm always does (accepted, nothing
 * to change); the others libprof does not have, and refuses saying so (NULL for a name that is not one). */
static const struct {
    const char *name, *refusal;
} async_profiler_features[] = {
    {"mixed", NULL},
    {"jnienv", "libprof does not walk from the JNIEnv of a thread outside Java"},
    {"pcaddr", "libprof does not record the address of a sampled instruction"},
};

bool options_ignore_async_profiler_feature(const options_spec *s, const char *name, size_t n, prof_options *o,
                                           const char **refusal) {
    (void)o;
    *refusal = NULL;
    if (!s->name || strcmp(s->name, "features") != 0) return false;
    for (size_t i = 0; i < sizeof(async_profiler_features) / sizeof(async_profiler_features[0]); i++) {
        if (strlen(async_profiler_features[i].name) != n || strncmp(name, async_profiler_features[i].name, n) != 0)
            continue;
        *refusal = async_profiler_features[i].refusal;
        return true;
    }
    return false;
}

static int apply_choice_set(const options_spec *s, const char *spelled, const char *value, prof_options *o,
                            char *err, size_t errlen) {
    int set = 0;
    const char *p = value ? value : "";
    do {
        size_t n = strcspn(p, "+");
        const options_choice *c = find_choice(s, p, n);
        const char *refusal;
        if (!c && options_ignore_async_profiler_feature(s, p, n, o, &refusal)) {
            if (refusal) {
                char what[600];
                return errmsg_fail(err, errlen, "%s: '%.*s' (async-profiler's) is not supported: %s",
                                   subject(spelled, value, what, sizeof(what)), (int)n, p, refusal);
            }
            p += n;
            continue;
        }
        if (!c) {
            char what[600], accepted[256];
            options_table_choices(s, accepted, sizeof(accepted));
            return errmsg_fail(err, errlen, "%s: unknown value '%.*s'; accepted: %s, several joined by '+'",
                               subject(spelled, value, what, sizeof(what)), (int)n, p, accepted);
        }
        set |= c->value;
        p += n;
    } while (*p++ == '+');
    *(int *)field_of(o, s->field) = set;
    return 0;
}

static int apply_text(const options_spec *s, const char *spelled, const char *value, char *dst, char *err,
                      size_t errlen) {
    char what[600];
    if (!value || !*value) return errmsg_fail(err, errlen, "%s: needs a value", subject(spelled, value, what, sizeof(what)));
    if (strlen(value) >= s->cap) {
        char start[48];
        snprintf(start, sizeof(start), "%.40s...", value);
        return errmsg_fail(err, errlen, "%s: the value is longer than %zu characters",
                           subject(spelled, start, what, sizeof(what)), s->cap - 1);
    }
    strcpy(dst, value);
    return 0;
}

/* A POSIX extended regular expression (the flame graph's search reads it as a JavaScript one: the common
 * subset), checked now so a bad one is refused before any conversion. */
static int apply_regex(const options_spec *s, const char *spelled, const char *value, prof_options *o, char *err,
                       size_t errlen) {
    if (apply_text(s, spelled, value, field_of(o, s->field), err, errlen)) return -1;
    regex_t re;
    char what[600];
    if (regcomp(&re, value, REG_EXTENDED | REG_NOSUB) != 0) {
        *(char *)field_of(o, s->field) = 0;
        return errmsg_fail(err, errlen, "%s: expected a regular expression, such as 'Main\\.(run|work)'",
                           subject(spelled, value, what, sizeof(what)));
    }
    regfree(&re);
    return 0;
}

static int apply_pattern(const options_spec *s, const char *spelled, const char *value, prof_options *o, char *err,
                         size_t errlen) {
    int *count = field_of(o, s->count_field);
    char what[600];
    if (*count >= OPTIONS_MAX_FILTERS)
        return errmsg_fail(err, errlen, "%s: more than %d patterns", subject(spelled, value, what, sizeof(what)),
                           OPTIONS_MAX_FILTERS);
    if (apply_text(s, spelled, value, (char *)field_of(o, s->field) + (size_t)*count * s->cap, err, errlen))
        return -1;
    const char *inner = strchr(value + 1, '*');
    if (inner && inner[1] != 0)
        return errmsg_fail(err, errlen, "%s: '*' is accepted only at the start or the end of a pattern",
                           subject(spelled, value, what, sizeof(what)));
    (*count)++;
    return 0;
}

/* trace=: checked now (trace_target.h), kept as written for the engine; several are a list. */
static int apply_trace(const options_spec *s, const char *spelled, const char *value, prof_options *o, char *err,
                       size_t errlen) {
    int *count = field_of(o, s->count_field);
    char what[600];
    if (!value) return errmsg_fail(err, errlen, "option '%s': needs a method, " TRACE_TARGET_ACCEPTED, spelled);
    if (*count >= OPTIONS_MAX_TRACE)
        return errmsg_fail(err, errlen, "%s: more than %d trace= targets", subject(spelled, value, what, sizeof(what)),
                           OPTIONS_MAX_TRACE);
    trace_target t;
    char why[OPTIONS_ERROR_MAX];
    if (trace_target_parse(value, &t, why, sizeof(why))) {
        /* its reason, after the option as spelled (trace= or jprof's --trace) */
        const char *reason = strstr(why, "': ");
        return errmsg_fail(err, errlen, "%s: %s", subject(spelled, value, what, sizeof(what)), reason ? reason + 3 : why);
    }
    if (apply_text(s, spelled, value, (char *)field_of(o, s->field) + (size_t)*count * s->cap, err, errlen)) return -1;
    (*count)++;
    return 0;
}

static int apply_file(const options_spec *s, const char *spelled, const char *value, prof_options *o, char *err,
                      size_t errlen) {
    char expanded[sizeof(o->file) + 64];
    if (apply_text(s, spelled, value, field_of(o, s->field), err, errlen)) return -1;
    /* Refuse a bad pattern now, not when the profile is due; the reason follows the option as spelled. */
    char why[OPTIONS_ERROR_MAX], what[600];
    if (filepath_expand(value, 1, 0, expanded, sizeof(expanded), why, sizeof(why)) == 0) return 0;
    const char *reason = strstr(why, ": ");
    return errmsg_fail(err, errlen, "%s%s", subject(spelled, value, what, sizeof(what)), reason ? reason : why);
}

#define KNOWN_EVENTS_TEXT \
    EVENT_NAMES_TEXT \
    "a perf event: " PERF_EVENTS_TEXT ", a native function: Class::method, or Java methods to instrument: " \
    "pkg.Class.method"

static int apply_event(const options_spec *s, const char *spelled, const char *value, prof_options *o, char *err,
                       size_t errlen) {
    static const char *const engines[] = {EVENT_NAMES(EVENT_NAMES_AS_ELEMENT)};
    char *event = field_of(o, s->field);
    char what[600];
    o->event_given = true;   /* on dump/stop it chooses which of the session's events an output holds */
    subject(spelled, value, what, sizeof(what));
    if (!value || !*value) return errmsg_fail(err, errlen, "%s: needs a value; accepted: " KNOWN_EVENTS_TEXT, what);
    for (size_t i = 0; i < sizeof(engines) / sizeof(engines[0]); i++) {
        if (strcmp(value, engines[i]) == 0) return apply_text(s, spelled, value, event, err, errlen);
    }
    if (method_target_is_target(value)) {
        /* Methods to instrument: refused now when malformed, kept as written for the engine. */
        method_target t;
        if (method_target_parse(value, &t, err, errlen)) return -1;
        return apply_text(s, spelled, value, event, err, errlen);
    }
    const perf_event_kind *perf = perf_events_find(value);
    /* Aliases are stored under perf's full name, which is what the engine and the report show. */
    if (perf) return apply_text(s, spelled, perf->name, event, err, errlen);
    /* A native function: found in the JVM's libraries at start, where it can fail. */
    if (perf_events_is_native_function(value)) return apply_text(s, spelled, value, event, err, errlen);
    return errmsg_fail(err, errlen, "%s: unknown event '%s'; accepted: " KNOWN_EVENTS_TEXT, what, value);
}

/* The agent's state=: thread states (thread_state.h names, any case, STATE_ optional, a prefix is enough),
 * ';' between them as ',' separates options. */
static int apply_states(const options_spec *s, const char *spelled, const char *value, prof_options *o, char *err,
                        size_t errlen) {
    unsigned mask = thread_state_parse_list(value);
    if (!mask) {
        char what[600];
        return errmsg_fail(err, errlen, "%s: expected thread states separated by ';' (any case, STATE_ optional, a "
                           "prefix is enough): runnable, sleeping, in_object_wait, parked, blocked_on_monitor_enter, "
                           "in_native, syscall, default", subject(spelled, value, what, sizeof(what)));
    }
    *(unsigned *)field_of(o, s->field) = mask;
    return 0;
}

/* filter=120-127;132: async-profiler's thread ids and ranges; ';' between them, as ',' separates options. */
static int apply_tids(const options_spec *s, const char *spelled, const char *value, prof_options *o, char *err,
                      size_t errlen) {
    uint32_t(*ranges)[2] = field_of(o, s->field);
    int *count = field_of(o, s->count_field);
    /* The one row of this kind is 'filter': bare, the session samples the threads the API adds
     * (thread_filter.h); with ids, those threads (which the session adds to the same filter at start). */
    o->thread_filter = true;
    *count = 0;
    if (!value) return 0;
    const char *p = value;
    bool ok = *p != 0;
    for (*count = 0; ok && *p;) {
        char *end;
        unsigned long long lo = 0, hi = 0;
        ok = parse_digits(p, &end, &lo) == 0 && lo <= UINT32_MAX;
        hi = lo;
        if (ok && *end == '-') ok = parse_digits(end + 1, &end, &hi) == 0 && hi <= UINT32_MAX && hi >= lo;
        ok = ok && (*end == 0 || *end == ';') && (uint64_t)*count < s->max;
        if (ok) {
            ranges[*count][0] = (uint32_t)lo;
            ranges[*count][1] = (uint32_t)hi;
            (*count)++;
            p = *end ? end + 1 : end;
        }
    }
    if (ok) return 0;
    char what[600];
    return errmsg_fail(err, errlen, "%s: expected thread ids and ranges separated by ';' (at most %llu), such as "
                       "120-127;132", subject(spelled, value, what, sizeof(what)), (unsigned long long)s->max);
}

/* A row's value by its kind. */
static int apply_kind(const options_spec *s, const char *spelled, const char *value, prof_options *o, char *err,
                      size_t errlen) {
    char what[600];
    switch (s->kind) {
    case OPTION_ACTION:
    case OPTION_FLAG:
        if (value) return errmsg_fail(err, errlen, "%s: takes no value", subject(spelled, value, what, sizeof(what)));
        if (s->field) *(bool *)field_of(o, s->field) = !s->off;
        if (s->field == offsetof(prof_options, total)) o->counter_given = true;
        if (s->format) o->format = (prof_format)s->format;
        return 0;
    case OPTION_COUNT:
        if (s->format) o->format = (prof_format)s->format;
        return apply_count(s, spelled, value, o, err, errlen);
    case OPTION_DURATION: return apply_duration(s, spelled, value, o, err, errlen);
    case OPTION_SIZE: return apply_size(s, spelled, value, o, err, errlen);
    case OPTION_PERCENT: return apply_percent(s, spelled, value, o, err, errlen);
    case OPTION_CHOICE: return apply_choice(s, spelled, value, o, err, errlen);
    case OPTION_CHOICE_SET: return apply_choice_set(s, spelled, value, o, err, errlen);
    case OPTION_EVENT: return apply_event(s, spelled, value, o, err, errlen);
    case OPTION_TEXT: return apply_text(s, spelled, value, field_of(o, s->field), err, errlen);
    case OPTION_REGEX: return apply_regex(s, spelled, value, o, err, errlen);
    case OPTION_PATTERN: return apply_pattern(s, spelled, value, o, err, errlen);
    case OPTION_FILE: return apply_file(s, spelled, value, o, err, errlen);
    case OPTION_TIDS: return apply_tids(s, spelled, value, o, err, errlen);
    case OPTION_STATES: return apply_states(s, spelled, value, o, err, errlen);
    case OPTION_NUMBER: return apply_number(s, spelled, value, o, err, errlen);
    case OPTION_TRACE: return apply_trace(s, spelled, value, o, err, errlen);
    case OPTION_TIME:
    case OPTION_KIND_COUNT: break;
    }
    /* Cannot happen: that kind is jfrconv's own setting, which jfrconv parses itself. */
    return errmsg_fail(err, errlen, "%s: not an agent option", subject(spelled, value, what, sizeof(what)));
}

int options_table_apply(const options_spec *s, const char *spelled, const char *value, prof_options *o,
                        char *err, size_t errlen) {
    if (!s->extra_event) return apply_kind(s, spelled, value, o, err, errlen);
    /* An event kind beside event=: bare, its field keeps what options_init put there (0 in extra_intervals[]:
     * the engine's default); a value is parsed by the row's kind. */
    if (value && apply_kind(s, spelled, value, o, err, errlen)) return -1;
    o->extra_events[s->extra_event] = true;
    return 0;
}
