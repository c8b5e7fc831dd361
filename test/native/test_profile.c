/* Unit tests of the named profile: interning, merging identical stacks, ordering. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>

#include "synthetic.h"

static void test_intern(void **state) {
    (void)state;
    profile p;
    profile_init(&p);
    uint32_t a = profile_intern(&p, "java/util/HashMap.get", FTYPE_JAVA);
    uint32_t b = profile_intern(&p, "Main.main", FTYPE_JAVA);
    assert_int_not_equal(a, b);
    assert_int_equal(profile_intern(&p, "java/util/HashMap.get", FTYPE_JAVA), a);
    assert_string_equal(p.names[b], "Main.main");
    /* Many names: the index grows and still finds every one. */
    char name[32];
    for (int i = 0; i < 5000; i++) {
        snprintf(name, sizeof(name), "C%d.m", i);
        profile_intern(&p, name, FTYPE_JAVA);
    }
    for (int i = 0; i < 5000; i += 97) {
        snprintf(name, sizeof(name), "C%d.m", i);
        assert_string_equal(p.names[profile_intern(&p, name, FTYPE_JAVA)], name);
    }
    assert_int_equal(p.name_count, 5002);
    profile_free(&p);
}

static void test_merge(void **state) {
    (void)state;
    profile p;
    synthetic_profile(&p);
    synthetic_add(&p, "Main.main;Main.work;Main.hot", 5, 50);   /* same names as an existing stack */
    synthetic_add(&p, "Main.main;Main.work", 1, 10);            /* a prefix is a different stack */
    assert_int_equal(p.stack_count, 4);
    assert_int_equal(p.stacks[0].samples, 65);
    assert_int_equal(p.stacks[0].weight, 650);
    assert_int_equal(p.total_samples, 106);
    assert_int_equal(p.total_weight, 1060);
    size_t *order = profile_sorted_stacks(&p);
    assert_int_equal(order[0], 0);
    assert_int_equal(order[1], 1);
    assert_int_equal(order[2], 2);
    assert_int_equal(order[3], 3);
    free(order);
    p.meta.total = true;
    assert_int_equal(profile_total_value(&p), 1060);
    assert_string_equal(profile_value_unit(&p), "ns");
    profile_free(&p);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_intern),
        cmocka_unit_test(test_merge),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
