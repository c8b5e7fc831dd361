/* Unit tests of lock_sample: async-profiler's sampling of contended waits by accumulated time, and weights
 * whose sum estimates the time waited. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "lock_sample.h"

static void test_every_wait_without_interval(void **state) {
    (void)state;
    uint64_t weight;
    lock_sample_reset(0);
    assert_true(lock_sample_pick(5, &weight));
    assert_int_equal(weight, 5);
    assert_true(lock_sample_pick(0, &weight));
    assert_int_equal(weight, 1);
}

static void test_accumulated(void **state) {
    (void)state;
    uint64_t weight;
    lock_sample_reset(10);
    /* 3 + 3 + 3 < 10: nothing; the fourth passes 10 and stands for a whole interval */
    for (int i = 0; i < 3; i++) assert_false(lock_sample_pick(3, &weight));
    assert_true(lock_sample_pick(3, &weight));
    assert_int_equal(weight, 10);
    /* a wait of at least the interval always counts, as itself */
    assert_true(lock_sample_pick(25, &weight));
    assert_int_equal(weight, 25);
    /* a new session starts empty */
    lock_sample_reset(10);
    assert_false(lock_sample_pick(9, &weight));
}

/* Many waits of random lengths below and above the interval: the weights add up to the time waited. */
static void test_estimate(void **state) {
    (void)state;
    srand(7);
    lock_sample_reset(1000);
    uint64_t truth = 0, estimate = 0, picked = 0, weight;
    for (int i = 0; i < 200000; i++) {
        uint64_t waited = (uint64_t)(rand() % 100 == 0 ? 1000 + rand() % 5000 : 1 + rand() % 200);
        truth += waited;
        if (lock_sample_pick(waited, &weight)) estimate += weight, picked++;
    }
    assert_true(picked < 200000 / 4);
    assert_true(llabs((long long)estimate - (long long)truth) <= (long long)(truth / 100));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_wait_without_interval),
        cmocka_unit_test(test_accumulated),
        cmocka_unit_test(test_estimate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
