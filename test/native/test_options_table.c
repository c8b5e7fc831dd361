/*
 * The option table as the one source of the three tools' options: every row has a value kind and, for
 * each tool that offers it, help; every kind refuses a bad value with a message naming the option, the
 * value and what is accepted; jprof's help, the agent's "accepted:" list and jfrconv's help list exactly
 * the table's rows for that tool, each once.
 */
#define _GNU_SOURCE
#include "jfrconv_args.h"
#include "jprof_help.h"
#include "options.h"
#include "options_table.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static void every_row_has_a_kind_and_help(void **state) {
    (void)state;
    for (size_t i = 0; i < options_table_count; i++) {
        const options_spec *s = &options_table[i];
        const char *label = s->name ? s->name : s->jprof ? s->jprof : s->jfrconv_long;
        if (!label) fail_msg("row %zu: no agent name and no tool flag", i);
        if (!options_table_kind_name(s->kind)) fail_msg("%s: no value kind", label);
        if (s->jprof && (!s->jprof_help || !*s->jprof_help)) fail_msg("%s: offered by jprof without help", label);
        if (s->jfrconv_long && (!s->jfrconv_help || !*s->jfrconv_help))
            fail_msg("%s: offered by jfrconv without help", label);
        if ((s->kind == OPTION_CHOICE || s->kind == OPTION_CHOICE_SET) && (!s->choices || !s->choices[0].name)) fail_msg("%s: a choice without values", label);
        bool stores = s->kind != OPTION_ACTION && s->kind != OPTION_TIME;
        if (s->name && stores && !s->field && !s->format) fail_msg("%s: an agent option that sets nothing", label);
        if ((s->kind == OPTION_TEXT || s->kind == OPTION_PATTERN || s->kind == OPTION_FILE ||
             s->kind == OPTION_EVENT) && s->name && !s->cap)
            fail_msg("%s: text without a capacity", label);
        if (s->kind == OPTION_REGEX && !s->cap) fail_msg("%s: a regex without a capacity", label);
        if ((s->kind == OPTION_COUNT) && s->name && (s->min > s->max || !s->max)) fail_msg("%s: count without limits", label);
        if (s->kind == OPTION_DURATION && s->name && !s->unit) fail_msg("%s: duration without a bare unit", label);
        if (s->kind == OPTION_TIDS && (!s->max || !s->count_field)) fail_msg("%s: thread ids without limits", label);
        /* An event beside event= is named after its kind and stores a duration or size (a uint64_t). */
        if (s->extra_event && (!s->name || strcmp(s->name, event_kind_name(s->extra_event)) != 0 || !s->field ||
                               (s->kind != OPTION_DURATION && s->kind != OPTION_SIZE && s->kind != OPTION_TRACE)))
            fail_msg("%s: an extra event's row needs its kind's name and a duration or size field", label);
    }
}

/* A bad value for each kind, as the agent's grammar and a tool's flag spell it. */
static const struct {
    options_kind kind;
    const char *value;   /* NULL: given bare */
    const char *accepted;   /* a piece of what the message must say is accepted */
} bad_values[] = {
    {OPTION_FLAG, "yes", "takes no value"},
    {OPTION_COUNT, "0x", "whole number"},
    {OPTION_DURATION, "10xs", "such as"},
    {OPTION_SIZE, "10kb", "100m"},
    {OPTION_PERCENT, "1e1", "0 to 100"},
    {OPTION_CHOICE, "bogus", ", "},
    {OPTION_CHOICE_SET, "agct+bogus", "unknown value 'bogus'"},
    {OPTION_EVENT, "bogus", "cpu, ctimer, itimer"},
    {OPTION_TEXT, "", "needs a value"},
    {OPTION_PATTERN, "a*b", "'*' is accepted only"},
    {OPTION_FILE, "out-%x", "%x"},
    {OPTION_TIDS, "12-x", "120-127;132"},
    {OPTION_STATES, "bogus", "sleeping"},
    {OPTION_TRACE, "a.B.c:soon", "threshold 'soon' is not a duration"},
};

static void each_kind_refuses_a_bad_value_naming_it(void **state) {
    (void)state;
    bool seen[OPTION_KIND_COUNT] = {0};
    for (size_t k = 0; k < sizeof(bad_values) / sizeof(bad_values[0]); k++) {
        for (size_t i = 0; i < options_table_count; i++) {
            const options_spec *s = &options_table[i];
            if (s->kind != bad_values[k].kind || !s->name) continue;
            seen[s->kind] = true;
            prof_options o;
            char err[OPTIONS_ERROR_MAX], flag[64];
            options_init(&o);
            if (options_table_apply(s, s->name, bad_values[k].value, &o, err, sizeof(err)) == 0)
                fail_msg("%s=%s accepted", s->name, bad_values[k].value);
            char given[128];
            snprintf(given, sizeof(given), "option '%s=%s'", s->name, bad_values[k].value);
            if (!strstr(err, given) || !strstr(err, bad_values[k].accepted))
                fail_msg("%s: the message does not name '%s' and '%s': %s", s->name, given, bad_values[k].accepted, err);
            /* Spelled as a tool's flag, the message names the flag. */
            snprintf(flag, sizeof(flag), "--%s", s->name);
            options_init(&o);
            if (options_table_apply(s, flag, bad_values[k].value, &o, err, sizeof(err)) == 0)
                fail_msg("%s %s accepted", flag, bad_values[k].value);
            snprintf(given, sizeof(given), "%s '%s'", flag, bad_values[k].value);
            if (!strstr(err, given)) fail_msg("%s: the message does not name '%s': %s", flag, given, err);
        }
    }
    /* The kinds only jfrconv has, through its command line. */
    jfrconv_args a;
    char err[256];
    char *time_argv[] = {"jfrconv", "--from", "soon", "a.jfr", "x", NULL};
    assert_int_equal(jfrconv_args_parse(5, time_argv, &a, err, sizeof(err)), -1);
    if (!strstr(err, "--from 'soon'") || !strstr(err, "10s")) fail_msg("time: %s", err);
    jfr_convert_options_free(&a.convert);
    seen[OPTION_TIME] = true;
    char *states_argv[] = {"jfrconv", "-s", "RUNNABLE,,", "a.jfr", "x", NULL};
    assert_int_equal(jfrconv_args_parse(5, states_argv, &a, err, sizeof(err)), -1);
    if (!strstr(err, "RUNNABLE,,") || !strstr(err, "SLEEPING")) fail_msg("states: %s", err);
    jfr_convert_options_free(&a.convert);
    seen[OPTION_STATES] = true;
    char *regex_argv[] = {"jfrconv", "--highlight", "Main.(run", "a.jfr", "x.html", NULL};
    assert_int_equal(jfrconv_args_parse(5, regex_argv, &a, err, sizeof(err)), -1);
    if (!strstr(err, "--highlight 'Main.(run'") || !strstr(err, "regular expression")) fail_msg("regex: %s", err);
    jfr_convert_options_free(&a.convert);
    seen[OPTION_REGEX] = true;
    /* --grain (a number of at least 1) and --skip (a count): each bad value named with what is accepted. */
    static const struct { const char *flag, *value, *accepted; } shaping[] = {
        {"--grain", "0.5", "at least 1"}, {"--grain", "-3", "at least 1"}, {"--grain", "10%", "such as 10 or 2.5"},
        {"--grain", "nan", "decimal number"}, {"--grain", "1.2.3", "decimal number"}, {"--skip", "-1", "whole number"},
        {"--skip", "two", "whole number"},
    };
    for (size_t i = 0; i < sizeof(shaping) / sizeof(shaping[0]); i++) {
        char *argv[] = {"jfrconv", (char *)shaping[i].flag, (char *)shaping[i].value, "a.jfr", "x", NULL};
        char given[64];
        snprintf(given, sizeof(given), "%s '%s'", shaping[i].flag, shaping[i].value);
        assert_int_equal(jfrconv_args_parse(5, argv, &a, err, sizeof(err)), -1);
        if (!strstr(err, given) || !strstr(err, shaping[i].accepted)) fail_msg("%s: %s", given, err);
        jfr_convert_options_free(&a.convert);
    }
    char *good_argv[] = {"jfrconv", "--grain", "2.5", "--skip", "3", "--classify", "a.jfr", "x", NULL};
    assert_int_equal(jfrconv_args_parse(8, good_argv, &a, err, sizeof(err)), 0);
    assert_true(a.output.grain == 2.5 && a.output.skip == 3 && a.output.classify);
    jfr_convert_options_free(&a.convert);
    seen[OPTION_NUMBER] = true;
    /* jfrconv's -o: a choice whose list is the table's, every viewer format included. */
    char *format_argv[] = {"jfrconv", "-o", "svg", "a.jfr", "x", NULL};
    assert_int_equal(jfrconv_args_parse(5, format_argv, &a, err, sizeof(err)), -1);
    if (!strstr(err, "-o 'svg'") || !strstr(err, "flamegraph (or html)") || !strstr(err, "pprof, speedscope, cpuprofile, gecko"))
        fail_msg("format: %s", err);
    jfr_convert_options_free(&a.convert);
    seen[OPTION_ACTION] = true;   /* actions: options_parse ("start=1", test_options) */
    for (int k = 0; k < OPTION_KIND_COUNT; k++) {
        if (!seen[k]) fail_msg("kind %s: no row tested", options_table_kind_name((options_kind)k));
    }
}

/* The option lines of a help text (after "Options:", up to the first blank line), as their flags. */
static int help_flags(const char *text, char flags[][64], int max) {
    const char *p = strstr(text, "Options:\n");
    assert_non_null(p);
    int n = 0;
    for (p = strchr(p, '\n') + 1; *p && *p != '\n'; p = strchr(p, '\n') + 1) {
        size_t indent = strspn(p, " ");
        if (p[indent] == '-' && indent < 8) {   /* a flag; help texts continue far more indented */
            assert_true(n < max);
            sscanf(p, " %63s", flags[n]);
            size_t len = strlen(flags[n]);
            if (len && flags[n][len - 1] == ',') flags[n][len - 1] = 0;   /* "-t, --threads" */
            if (strcmp(flags[n], "-h") != 0 && strcmp(flags[n], "-v") != 0) n++;   /* jprof's own switches */
        }
        if (!strchr(p, '\n')) break;
    }
    return n;
}

static char *capture(void (*print)(FILE *)) {
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    print(f);
    fclose(f);
    return text;
}

/* Each of 'flags' is the row's flag of exactly one row, and every row with such a flag is listed. */
static void assert_lists_rows(char flags[][64], int n, const char *(*flag_of)(const options_spec *), const char *tool) {
    int rows = 0;
    for (size_t i = 0; i < options_table_count; i++) {
        const char *flag = flag_of(&options_table[i]);
        if (!flag) continue;
        rows++;
        int found = 0;
        for (int j = 0; j < n; j++) found += strcmp(flags[j], flag) == 0;
        if (found != 1) fail_msg("%s: '%s' listed %d times in the help", tool, flag, found);
    }
    if (rows != n) fail_msg("%s: the help lists %d options, the table has %d", tool, n, rows);
}

static const char *jprof_flag(const options_spec *s) {
    return s->jprof;
}

static const char *jfrconv_flag(const options_spec *s) {
    return s->jfrconv_long ? (s->jfrconv ? s->jfrconv : s->jfrconv_long) : NULL;
}

static const char *agent_name(const options_spec *s) {
    return s->name;
}

static void helps_list_exactly_the_tables_rows(void **state) {
    (void)state;
    char flags[128][64];
    char *text = capture(jprof_help_print);
    assert_lists_rows(flags, help_flags(text, flags, 128), jprof_flag, "jprof");
    free(text);
    text = capture(jfrconv_usage);
    assert_lists_rows(flags, help_flags(text, flags, 128), jfrconv_flag, "jfrconv");
    free(text);
    /* The agent's help is the list its unknown-option message gives: its words, without the "=" marks. */
    char accepted[2048];
    options_table_accepted(accepted, sizeof(accepted));
    int n = 0;
    for (char *save = NULL, *w = strtok_r(accepted, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        w[strcspn(w, "=[")] = 0;
        snprintf(flags[n++], 64, "%s", w);
    }
    assert_lists_rows(flags, n, agent_name, "agent");
}

/* A choice's values are listed from the table, in the help and in the error alike. */
static void choice_lists_come_from_the_table(void **state) {
    (void)state;
    char *text = capture(jprof_help_print);
    const options_spec *levels = options_table_find("loglevel");
    char list[256], err[OPTIONS_ERROR_MAX];
    options_table_choices(levels, list, sizeof(list));
    assert_non_null(strstr(text, list));
    prof_options o;
    assert_int_equal(options_parse("loglevel=loud", &o, err, sizeof(err)), -1);
    assert_non_null(strstr(err, list));
    free(text);
}

/* features=: the set's values joined by '+' OR their bits; a later features= replaces the set; an empty
 * member is refused like an unknown one. */
static void choice_set_joins_the_tables_values(void **state) {
    (void)state;
    prof_options o;
    char err[OPTIONS_ERROR_MAX];
    assert_int_equal(options_parse("features=agct", &o, err, sizeof(err)), 0);
    assert_int_equal(o.features, PROF_FEATURE_AGCT);
    assert_int_equal(options_parse("features=agct+agct", &o, err, sizeof(err)), 0);
    assert_int_equal(o.features, PROF_FEATURE_AGCT);
    assert_int_equal(options_parse("features=sigtrap+agct", &o, err, sizeof(err)), 0);
    assert_int_equal(o.features, PROF_FEATURE_AGCT | PROF_FEATURE_SIGTRAP);
    assert_int_equal(options_parse("start", &o, err, sizeof(err)), 0);
    assert_int_equal(o.features, 0);
    assert_int_equal(options_parse("features=agct+", &o, err, sizeof(err)), -1);
    if (!strstr(err, "option 'features=agct+'") || !strstr(err, "accepted: agct, sigtrap, nosigtrap, stats, vtable, comptask, several joined by '+'"))
        fail_msg("features=agct+: %s", err);
    /* sigtrap asks for SIGTRAP delivery, nosigtrap forbids it: both at once is refused, naming both. */
    assert_int_equal(options_parse("features=sigtrap+nosigtrap", &o, err, sizeof(err)), -1);
    if (!strstr(err, "sigtrap and nosigtrap conflict")) fail_msg("features=sigtrap+nosigtrap: %s", err);
    assert_int_equal(options_parse("features=nosigtrap+agct", &o, err, sizeof(err)), 0);
    assert_int_equal(o.features, PROF_FEATURE_AGCT | PROF_FEATURE_NOSIGTRAP);
    assert_int_equal(options_parse("features=stats", &o, err, sizeof(err)), 0);
    assert_int_equal(o.features, PROF_FEATURE_STATS);
    assert_string_equal(o.ignored, "");
    assert_int_equal(options_parse("features=", &o, err, sizeof(err)), -1);
    assert_int_equal(options_parse("features", &o, err, sizeof(err)), -1);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_row_has_a_kind_and_help),
        cmocka_unit_test(each_kind_refuses_a_bad_value_naming_it),
        cmocka_unit_test(helps_list_exactly_the_tables_rows),
        cmocka_unit_test(choice_lists_come_from_the_table),
        cmocka_unit_test(choice_set_joins_the_tables_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
