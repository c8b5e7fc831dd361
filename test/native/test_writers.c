/* Unit tests of the collapsed and text writers on a synthetic profile. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>

#include "out_collapsed.h"
#include "out_text.h"
#include "synthetic.h"

static char *render(int (*write)(const profile *, FILE *), const profile *p) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_int_equal(write(p, f), 0);
    fclose(f);
    return buf;
}

static int text_default(const profile *p, FILE *f) { return out_text_write(p, f, 200, 200); }
static int text_two_traces(const profile *p, FILE *f) { return out_text_write(p, f, 2, 0); }

static void test_collapsed_samples_and_total(void **state) {
    (void)state;
    profile p;
    synthetic_profile(&p);
    char *out = render(out_collapsed_write, &p);
    assert_string_equal(out, "Main.main;Main.work;Main.hot 60\n"
                             "Main.main;Main.work;Main.cold 30\n"
                             "Main.main;Main.idle 10\n"
                             "[dropped table_full] 4\n");   /* the samples dropped without a stack */
    free(out);
    p.meta.total = true;
    out = render(out_collapsed_write, &p);
    assert_string_equal(out, "Main.main;Main.work;Main.hot 600\n"
                             "Main.main;Main.work;Main.cold 300\n"
                             "Main.main;Main.idle 100\n"
                             "[dropped table_full] 40\n");   /* at the mean weight, 10 ns, of a stored sample */
    free(out);
    profile_free(&p);
}

static void test_text_report(void **state) {
    (void)state;
    profile p;
    synthetic_profile(&p);
    char *out = render(text_default, &p);
    assert_non_null(strstr(out, "Engine         : ctimer (event=cpu)"));
    /* async-profiler's labels open the report, for scripts that read them. */
    assert_true(strncmp(out, "--- Execution profile ---\nTotal samples       : 100\n", 52) == 0);
    assert_non_null(strstr(out, "Duration       : 2.500 s"));
    assert_non_null(strstr(out, "table_full"));
    assert_non_null(strstr(out, "[unknown_Java]"));
    assert_non_null(strstr(out, "Failed walks   : 2 (2.00% of samples"));
    /* Hottest trace first, leaf first inside a trace. */
    assert_non_null(strstr(out, "--- 60 samples (60.00%)"));
    assert_non_null(strstr(out, "--- 30 samples (30.00%)"));
    assert_true(strstr(out, "--- 60 samples") < strstr(out, "--- 30 samples"));
    assert_non_null(strstr(out, "--- 60 samples (60.00%)\n  [ 0] Main.hot\n  [ 1] Main.work\n  [ 2] Main.main"));
    /* Flat profile: self time of leaf frames. */
    assert_non_null(strstr(out, " 60.00%  Main.hot"));
    assert_non_null(strstr(out, " 30.00%  Main.cold"));
    assert_non_null(strstr(out, " 10.00%  Main.idle"));
    assert_null(strstr(out, "%  Main.main"));   /* never a leaf */
    /* The walker's diagnostics only with features=stats. */
    assert_null(strstr(out, "Cost per sample"));
    assert_null(strstr(out, "Walker-named"));
    free(out);
    snprintf(p.meta.cstack, sizeof(p.meta.cstack), "vm");
    p.meta.stats = true;
    out = render(text_default, &p);
    assert_non_null(strstr(out, "Cost per sample (cstack=vm)"));
    assert_non_null(strstr(out, "Walker-named   : "));
    assert_non_null(strstr(out, "VM walk problems: "));
    free(out);
    profile_free(&p);
}

static void test_text_limits(void **state) {
    (void)state;
    profile p;
    synthetic_profile(&p);
    char *out = render(text_two_traces, &p);
    assert_non_null(strstr(out, "--- 30 samples"));
    assert_null(strstr(out, "--- 10 samples"));
    assert_null(strstr(out, "self (leaf frame)"));
    free(out);
    profile_free(&p);
}

#define EVIL_THREAD "[evil\nmain;x 999\r\t\x01\\n tid=7]"

/* One stack: a thread frame whose name holds a newline, ';' and other control characters, then a leaf
 * whose name holds a newline; 5 samples. */
static void evil_profile(profile *p) {
    profile_init(p);
    strcpy(p->meta.engine, "ctimer");
    strcpy(p->meta.event, "cpu");
    uint32_t ids[2] = {profile_intern(p, EVIL_THREAD, FTYPE_THREAD), profile_intern(p, "Main.hot\n1", FTYPE_JAVA)};
    assert_int_equal(profile_add(p, ids, 2, 5, 50), 0);
}

/* One line, two frames, however the names are spelled. */
static void test_collapsed_names_escaped(void **state) {
    (void)state;
    profile p;
    evil_profile(&p);
    char *out = render(out_collapsed_write, &p);
    assert_string_equal(out, "[evil\\nmain\\x3bx 999\\r\\t\\x01\\\\n tid=7];Main.hot\\n1 5\n");
    free(out);
    profile_free(&p);
}

static void test_text_names_escaped(void **state) {
    (void)state;
    profile p;
    evil_profile(&p);
    char *out = render(text_default, &p);
    assert_non_null(strstr(out, "  [ 1] [evil\\nmain;x 999\\r\\t\\x01\\\\n tid=7]\n"));
    assert_non_null(strstr(out, "  [ 0] Main.hot\\n1\n"));
    assert_non_null(strstr(out, "%  Main.hot\\n1\n"));
    /* No raw control character from a name anywhere in the report. */
    assert_null(strstr(out, "evil\n"));
    assert_null(strstr(out, "\r"));
    assert_null(strstr(out, "\x01"));
    free(out);
    profile_free(&p);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_collapsed_samples_and_total),
        cmocka_unit_test(test_text_report),
        cmocka_unit_test(test_text_limits),
        cmocka_unit_test(test_collapsed_names_escaped),
        cmocka_unit_test(test_text_names_escaped),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
