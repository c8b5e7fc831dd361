/* Differential profiles: two known profiles, every kind of change with its sign and value,
 * shares when durations are unknown and rates per second when known; the text and HTML forms. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collapsed_read.h"
#include "out_diff.h"
#include "profile_diff.h"

/* base: 100 samples, new: 200 (twice as long a run). As shares: hot 50% -> 60% (grown), warm 30% -> 10%
 * (shrunk), gone 20% -> 0 (removed), new 0 -> 30% (added), same 0 -> 0 not present; "flat" stays 10%. */
static const char BASE[] = "main;a;hot 40\nmain;a;warm 30\nmain;b;gone 20\nmain;flat 10\n";
static const char NEXT[] = "main;a;hot 100\nmain;a;warm 20\nmain;c;new 60\nmain;flat 20\n";

static void load(const char *text, profile *p, uint64_t duration_ns) {
    profile_init(p);
    FILE *in = fmemopen((void *)text, strlen(text), "r");
    char err[256];
    assert_int_equal(collapsed_read(in, "test", p, err, sizeof(err)), 0);
    fclose(in);
    p->meta.duration_ns = duration_ns;
}

/* The normalised base and new values of the stack spelled 'stack'. */
static void values(const profile_diff *d, const char *stack, double *base, double *next) {
    char buf[256];
    for (size_t i = 0; i < d->stacks.stack_count; i++) {
        const profile_stack *s = &d->stacks.stacks[i];
        buf[0] = 0;
        for (uint32_t f = 0; f < s->depth; f++) {
            if (f) strcat(buf, ";");
            strcat(buf, d->stacks.names[s->frames[f]]);
        }
        if (strcmp(buf, stack) == 0) {
            *base = d->base[i];
            *next = d->next[i];
            return;
        }
    }
    fail_msg("no stack %s in the diff", stack);
}

static void expect(const profile_diff *d, const char *stack, double base, double next, diff_change change) {
    double b, n;
    values(d, stack, &b, &n);
    if (fabs(b - base) > 1e-9 || fabs(n - next) > 1e-9)
        fail_msg("%s: base %g new %g, expected %g and %g", stack, b, n, base, next);
    assert_string_equal(profile_diff_change_name(profile_diff_change(b, n)), profile_diff_change_name(change));
}

static void test_shares_without_durations(void **state) {
    (void)state;
    profile base, next;
    load(BASE, &base, 0);
    load(NEXT, &next, 0);
    profile_diff d;
    assert_int_equal(profile_diff_build(&base, &next, &d), 0);
    assert_false(d.per_second);
    assert_string_equal(d.unit, "% of samples");
    assert_int_equal(d.stacks.stack_count, 5);   /* the union: removed stacks are kept */
    expect(&d, "main;a;hot", 40, 50, DIFF_GROWN);
    expect(&d, "main;a;warm", 30, 10, DIFF_SHRUNK);
    expect(&d, "main;b;gone", 20, 0, DIFF_REMOVED);
    expect(&d, "main;c;new", 0, 30, DIFF_ADDED);
    expect(&d, "main;flat", 10, 10, DIFF_SAME);
    profile_diff_free(&d);
    profile_free(&base);
    profile_free(&next);
}

static void test_rates_with_durations(void **state) {
    (void)state;
    profile base, next;
    load(BASE, &base, 1000000000ULL);   /* 1 s */
    load(NEXT, &next, 4000000000ULL);   /* 4 s: 200 samples are 50 per second */
    profile_diff d;
    assert_int_equal(profile_diff_build(&base, &next, &d), 0);
    assert_true(d.per_second);
    assert_string_equal(d.unit, "samples/s");
    expect(&d, "main;a;hot", 40, 25, DIFF_SHRUNK);   /* more samples, fewer per second */
    expect(&d, "main;c;new", 0, 15, DIFF_ADDED);
    expect(&d, "main;b;gone", 20, 0, DIFF_REMOVED);
    expect(&d, "main;flat", 10, 5, DIFF_SHRUNK);
    assert_true(fabs(d.base_total - 100) < 1e-9 && fabs(d.next_total - 50) < 1e-9);
    profile_diff_free(&d);
    profile_free(&base);
    profile_free(&next);
}

static char *written(int (*write)(const profile_diff *, const out_diff_labels *, FILE *), const profile_diff *d) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    out_diff_labels l = {"base.collapsed", "new.collapsed", "100 samples", "200 samples", NULL};
    assert_int_equal(write(d, &l, f), 0);
    fclose(f);
    return buf;
}

static void test_text_and_html(void **state) {
    (void)state;
    profile base, next;
    load(BASE, &base, 0);
    load(NEXT, &next, 0);
    profile_diff d;
    assert_int_equal(profile_diff_build(&base, &next, &d), 0);
    char *text = written(out_diff_write_text, &d);
    /* Largest change first, signed: added +30, then warm -20 and gone -20 (ties in union order), hot +10. */
    const char *added = strstr(text, "added          +30.0000         0.0000        30.0000            main;c;new");
    const char *shrunk = strstr(text, "shrunk         -20.0000        30.0000        10.0000    -66.7%  main;a;warm");
    const char *removed = strstr(text, "removed        -20.0000        20.0000         0.0000            main;b;gone");
    const char *grown = strstr(text, "grown          +10.0000        40.0000        50.0000    +25.0%  main;a;hot");
    if (!added || !shrunk || !removed || !grown) fail_msg("unexpected text form:\n%s", text);
    assert_true(added < shrunk && shrunk < removed && removed < grown);
    assert_non_null(strstr(text, "same            +0.0000        10.0000        10.0000     +0.0%  main;flat"));
    free(text);
    char *html = written(out_diff_write_html, &d);
    /* Rows [left %, width %, depth, name, base, new, relative change]: removed "gone" keeps its base width
     * (20 of 120 = new 100 + removed 20), added "new" its new one. */
    assert_non_null(strstr(html, "16.666667,2,\"gone\",20,0,-0.6667]"));
    assert_non_null(strstr(html, "25.000000,2,\"new\",0,30,1.0000]"));
    assert_non_null(strstr(html, "\"unit\":\"% of samples\""));
    free(html);
    profile_diff_free(&d);
    profile_free(&base);
    profile_free(&next);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shares_without_durations),
        cmocka_unit_test(test_rates_with_durations),
        cmocka_unit_test(test_text_and_html),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
