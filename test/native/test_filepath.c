/* Unit tests of file= expansion: %p, %t, %%, and refusal of anything else. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
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

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain_and_pid),
        cmocka_unit_test(test_timestamp),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
