#define _GNU_SOURCE
/* Unit tests of /proc/kallsyms parsing, on fixture text and on the real file. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kallsyms.h"

static const char fixture[] =
    "0000000000000000 A fixed_percpu_data\n"
    "ffffffff81000000 T _stext\n"
    "ffffffff81000000 T startup_64\n"
    "ffffffff81000100 t secondary_startup_64\n"
    "ffffffff81001000 T do_syscall_64\n"
    "ffffffff81001800 D some_data\n"
    "garbage line\n"
    "ffffffff81002000 T\n"
    "\n"
    "ffffffffc0001000 t ext4_foo\t[ext4]\n"
    "ffffffffc0001080 t ext4_bar\t[ext4]";  /* no final newline */

static void test_fixture(void **state) {
    (void)state;
    assert_int_equal(kallsyms_parse(fixture, strlen(fixture)), 6);  /* 5 text + 1 data boundary */
    assert_true(kallsyms_available());
    assert_null(kallsyms_find(0xffffffff80ffffffULL));
    assert_string_equal(kallsyms_find(0xffffffff81000000ULL), "startup_64");  /* alias: no underscore wins */
    assert_string_equal(kallsyms_find(0xffffffff810000ffULL), "startup_64");
    assert_string_equal(kallsyms_find(0xffffffff81000100ULL), "secondary_startup_64");
    assert_string_equal(kallsyms_find(0xffffffff81001234ULL), "do_syscall_64");
    assert_null(kallsyms_find(0xffffffff81001800ULL));  /* data ends the function before it */
    assert_string_equal(kallsyms_find(0xffffffffc0001010ULL), "ext4_foo");
    assert_string_equal(kallsyms_find(0xffffffffc0001080ULL), "ext4_bar");
    assert_string_equal(kallsyms_find(0xffffffffc0001080ULL + KALLSYMS_MAX_SIZE - 1), "ext4_bar");
    assert_null(kallsyms_find(0xffffffffc0001080ULL + KALLSYMS_MAX_SIZE));
    kallsyms_free();
    assert_false(kallsyms_available());
    assert_null(kallsyms_find(0xffffffff81000000ULL));
}

static void test_restricted(void **state) {
    (void)state;
    static const char hidden[] = "0000000000000000 T _stext\n"
                                 "0000000000000000 T startup_64\n"
                                 "0000000000000000 t ext4_foo\t[ext4]\n";
    assert_int_equal(kallsyms_parse(hidden, strlen(hidden)), 0);
    assert_false(kallsyms_available());
    assert_null(kallsyms_find(0));
    assert_int_equal(kallsyms_parse("", 0), 0);
    assert_false(kallsyms_available());
    /* Text ending in the middle of a line, in a buffer of exactly that size (no NUL after it). */
    static const char cut[] = "ffffffff81000000 T _stext\nffffffff81001000";
    char *exact = malloc(sizeof(cut) - 1);
    memcpy(exact, cut, sizeof(cut) - 1);
    assert_int_equal(kallsyms_parse(exact, sizeof(cut) - 1), 1);
    assert_string_equal(kallsyms_find(0xffffffff81000010ULL), "_stext");
    free(exact);
}

static void test_files(void **state) {
    (void)state;
    char path[] = "/tmp/libprof-kallsyms-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs(fixture, f);
    fclose(f);
    assert_int_equal(kallsyms_load(path), 6);
    assert_string_equal(kallsyms_find(0xffffffff81001000ULL), "do_syscall_64");
    unlink(path);
    assert_int_equal(kallsyms_load("/nonexistent/kallsyms"), 0);
    assert_false(kallsyms_available());
    /* The real file: either hidden (kptr_restrict) or a table in which _stext's address is named. */
    size_t n = kallsyms_load(NULL);
    assert_int_equal(kallsyms_available(), n > 0);
    kallsyms_free();
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixture),
        cmocka_unit_test(test_restricted),
        cmocka_unit_test(test_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
