/* Unit tests of jfrconv's command line: formats, option spellings, times. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "jfrconv_args.h"

/* Parses into 'a', first releasing the patterns of its previous parse (a starts zeroed). */
static int parse(jfrconv_args *a, char *err, const char *first, ...) {
    jfr_convert_options_free(&a->convert);
    char *argv[32] = {"jfrconv"};
    int argc = 1;
    va_list ap;
    va_start(ap, first);
    for (const char *s = first; s && argc < 31; s = va_arg(ap, const char *)) argv[argc++] = (char *)s;
    va_end(ap);
    return jfrconv_args_parse(argc, argv, a, err, 256);
}

static void test_formats_and_options(void **state) {
    (void)state;
    jfrconv_args a = {0};
    char err[256];
    assert_int_equal(parse(&a, err, "in.jfr", "out.html", NULL), 0);
    assert_int_equal(a.input_count, 1);
    assert_string_equal(a.inputs[0], "in.jfr");
    assert_int_equal(options_effective_format(&a.output), FORMAT_FLAMEGRAPH);
    assert_int_equal(parse(&a, err, "-o", "collapsed", "a.jfr", "b.jfr", "-", NULL), 0);
    assert_int_equal(a.input_count, 2);
    assert_string_equal(a.output.file, "");   /* standard output */
    assert_int_equal(options_effective_format(&a.output), FORMAT_COLLAPSED);
    /* Only an input: the flame graph beside it. */
    assert_int_equal(parse(&a, err, "dir/app.jfr", NULL), 0);
    assert_string_equal(a.output_path, "dir/app.html");
    /* '%' in the output is a plain character, not a file= pattern. */
    assert_int_equal(parse(&a, err, "a.jfr", "100%.collapsed", NULL), 0);
    assert_string_equal(a.output.file, "100%%.collapsed");
    /* -r: the page opens reversed; collapsed stacks are written leaf first. */
    assert_int_equal(parse(&a, err, "-r", "a.jfr", "x.html", NULL), 0);
    assert_true(a.output.reverse && !a.convert.reverse_stacks);
    assert_int_equal(parse(&a, err, "--reverse", "a.jfr", "x.collapsed", NULL), 0);
    assert_true(!a.output.reverse && a.convert.reverse_stacks);
    assert_int_equal(parse(&a, err, "-t", "--ann", "--dot", "--total", "--title=T x", "--minwidth", "0.5", "--cpu",
                           "-s", "r", "-I", "*Map*", "-X", "java/.*", "a.jfr", "x.txt", NULL), 0);
    assert_true(a.convert.threads && a.convert.style.ann && a.convert.style.dot && a.output.total && a.convert.cpu_only);
    assert_string_equal(a.output.title, "T x");
    assert_true(a.output.minwidth == 0.5);
    assert_int_equal(a.convert.state_count, 1);
    assert_int_equal(a.convert.include_count, 1);
    assert_int_equal(a.convert.exclude_count, 1);
    /* Errors name the argument. */
    assert_int_equal(parse(&a, err, "-o", "svg", "a.jfr", "x", NULL), -1);
    assert_non_null(strstr(err, "svg"));
    assert_int_equal(parse(&a, err, "--minwidth", "1e1", "a.jfr", "x", NULL), -1);
    assert_non_null(strstr(err, "1e1"));
    assert_int_equal(parse(&a, err, "--frobnicate", "a.jfr", "x", NULL), -1);
    assert_non_null(strstr(err, "--frobnicate"));
    assert_int_equal(parse(&a, err, "a.jfr", "x", "--title", NULL), -1);
    assert_non_null(strstr(err, "needs a value"));
    assert_int_equal(parse(&a, err, "-t=1", "a.jfr", "x", NULL), -1);
    /* --tail: a ratio or a percentage, 10% unless given */
    assert_int_equal(parse(&a, err, "--nativemem", "--leak", "a.jfr", "x", NULL), 0);
    assert_true(a.convert.leak && a.convert.tail == 0.1);
    assert_int_equal(parse(&a, err, "--tail", "20%", "a.jfr", "x", NULL), 0);
    assert_true(a.convert.tail == 0.2);
    assert_int_equal(parse(&a, err, "--tail=0.5", "a.jfr", "x", NULL), 0);
    assert_true(a.convert.tail == 0.5);
    const char *bad_tails[] = {"1.5", "-0.1", "120%", "%", "x", "20%%", ""};
    for (size_t i = 0; i < sizeof(bad_tails) / sizeof(bad_tails[0]); i++) {
        if (parse(&a, err, "--tail", bad_tails[i], "a.jfr", "x", NULL) == 0) fail_msg("--tail '%s' accepted", bad_tails[i]);
        assert_non_null(strstr(err, "ratio"));
    }
    assert_int_equal(parse(&a, err, NULL), -1);
    assert_non_null(strstr(err, "no input"));
    jfr_convert_options_free(&a.convert);
}

static void test_times(void **state) {
    (void)state;
    jfrconv_time t;
    assert_int_equal(jfrconv_parse_time("10s", &t), 0);
    assert_true(t.kind == TIME_FROM_START && t.ns == 10000000000ULL);
    assert_int_equal(jfrconv_parse_time("1500", &t), 0);   /* bare: milliseconds */
    assert_true(t.kind == TIME_FROM_START && t.ns == 1500000000ULL);
    assert_int_equal(jfrconv_parse_time("2.5s", &t), 0);
    assert_true(t.ns == 2500000000ULL);
    assert_int_equal(jfrconv_parse_time("-500ms", &t), 0);
    assert_true(t.kind == TIME_FROM_END && t.ns == 500000000ULL);
    assert_int_equal(jfrconv_parse_time("1700000000123", &t), 0);   /* epoch milliseconds */
    assert_true(t.kind == TIME_ABSOLUTE && t.ns == 1700000000123000000ULL);
    assert_int_equal(jfrconv_parse_time("2023-11-14T22:13:20.5Z", &t), 0);
    assert_true(t.kind == TIME_ABSOLUTE && t.ns == 1700000000500000000ULL);
    assert_int_equal(jfrconv_parse_time("10:15:00", &t), 0);
    assert_true(t.kind == TIME_OF_DAY && t.ns == 36900000000000ULL);
    const char *bad[] = {"", "soon", "10x", "-", "2023-13-45T99:00:00", "1e3", "10s5"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        if (jfrconv_parse_time(bad[i], &t) == 0) fail_msg("'%s' was accepted as a time", bad[i]);
    }
    /* Resolution against a recording spanning [1000 s, 1060 s]. */
    jfrconv_time rel = {TIME_FROM_START, 5000000000ULL}, end = {TIME_FROM_END, 10000000000ULL}, none = {0};
    assert_true(jfrconv_resolve_time(&rel, 1000000000000ULL, 1060000000000ULL, 0) == 1005000000000ULL);
    assert_true(jfrconv_resolve_time(&end, 1000000000000ULL, 1060000000000ULL, 0) == 1050000000000ULL);
    assert_true(jfrconv_resolve_time(&none, 1, 2, 77) == 77);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_formats_and_options),
        cmocka_unit_test(test_times),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
