/* Unit tests of file= expansion: %p, %t, %n, %n{MAX}, %{ENV}, %%, and refusal of anything else. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "filepath.h"

static char out[256], err[256];

static void test_plain_and_pid(void **state) {
    (void)state;
    assert_int_equal(filepath_expand("/tmp/a.txt", 42, 0, out, sizeof(out), err, sizeof(err)), 0);
    assert_string_equal(out, "/tmp/a.txt");
    assert_int_equal(filepath_expand("/tmp/p-%p-%p.collapsed", 1234, 0, out, sizeof(out), err, sizeof(err)), 0);
    assert_string_equal(out, "/tmp/p-1234-1234.collapsed");
    assert_int_equal(filepath_expand("100%%.txt", 1, 0, out, sizeof(out), err, sizeof(err)), 0);
    assert_string_equal(out, "100%.txt");
}

static void test_timestamp(void **state) {
    (void)state;
    struct tm tm = {.tm_year = 126, .tm_mon = 10, .tm_mday = 22, .tm_hour = 9, .tm_min = 5, .tm_sec = 7, .tm_isdst = -1};
    time_t when = mktime(&tm);
    assert_int_equal(filepath_expand("prof-%t.txt", 1, when, out, sizeof(out), err, sizeof(err)), 0);
    assert_string_equal(out, "prof-20261122-090507.txt");
}

static void test_refusals(void **state) {
    (void)state;
    assert_int_equal(filepath_expand("a%s.txt", 1, 0, out, sizeof(out), err, sizeof(err)), -1);
    assert_non_null(strstr(err, "%s"));
    assert_non_null(strstr(err, "a%s.txt"));
    assert_int_equal(filepath_expand("a%", 1, 0, out, sizeof(out), err, sizeof(err)), -1);
    char small[8];
    assert_int_equal(filepath_expand("abcdefghij", 1, 0, small, sizeof(small), err, sizeof(err)), -1);
    assert_non_null(strstr(err, "longer"));
}

/* The loop's sequence: %n counts on, %n{MAX} rolls over MAX names. */
static void test_sequence(void **state) {
    (void)state;
    filepath_set_sequence(5);
    assert_int_equal(filepath_expand("p-%n-%n{2}-%n{5}.jfr", 1, 0, out, sizeof(out), err, sizeof(err)), 0);
    assert_string_equal(out, "p-5-1-0.jfr");
    filepath_set_sequence(0);
    assert_int_equal(filepath_expand("p-%n{3}", 1, 0, out, sizeof(out), err, sizeof(err)), 0);
    assert_string_equal(out, "p-0");
    assert_int_equal(filepath_expand("p-%n{0}", 1, 0, out, sizeof(out), err, sizeof(err)), -1);
    assert_int_equal(filepath_expand("p-%n{x}", 1, 0, out, sizeof(out), err, sizeof(err)), -1);
    assert_int_equal(filepath_expand("p-%n{2", 1, 0, out, sizeof(out), err, sizeof(err)), -1);
}

static void test_environment(void **state) {
    (void)state;
    setenv("LIBPROF_TEST_HOST", "web-1", 1);
    assert_int_equal(filepath_expand("/tmp/%{LIBPROF_TEST_HOST}-%p.html", 7, 0, out, sizeof(out), err, sizeof(err)), 0);
    assert_string_equal(out, "/tmp/web-1-7.html");
    unsetenv("LIBPROF_TEST_UNSET");
    assert_int_equal(filepath_expand("%{LIBPROF_TEST_UNSET}.txt", 1, 0, out, sizeof(out), err, sizeof(err)), -1);
    assert_non_null(strstr(err, "LIBPROF_TEST_UNSET is not set"));
    assert_int_equal(filepath_expand("%{BAD-NAME}.txt", 1, 0, out, sizeof(out), err, sizeof(err)), -1);
    assert_int_equal(filepath_expand("%{OPEN", 1, 0, out, sizeof(out), err, sizeof(err)), -1);
}

/* A value that would move the file elsewhere is refused, naming it; '..' inside a name part is fine. */
static void test_environment_path_parts(void **state) {
    (void)state;
    const char *bad[] = {"../../etc", "a/b", "/", "..", "."};
    for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
        setenv("LIBPROF_TEST_PART", bad[i], 1);
        err[0] = 0;
        assert_int_equal(filepath_expand("/tmp/out/%{LIBPROF_TEST_PART}/p.html", 1, 0, out, sizeof(out), err,
                                         sizeof(err)), -1);
        assert_non_null(strstr(err, "must not hold '/'"));
        assert_non_null(strstr(err, bad[i]));
    }
    setenv("LIBPROF_TEST_PART", "v1..2", 1);
    assert_int_equal(filepath_expand("/tmp/%{LIBPROF_TEST_PART}.html", 1, 0, out, sizeof(out), err, sizeof(err)), 0);
    assert_string_equal(out, "/tmp/v1..2.html");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain_and_pid),
        cmocka_unit_test(test_timestamp),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_environment_path_parts),
        cmocka_unit_test(test_sequence),
        cmocka_unit_test(test_environment),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
