/* Unit tests of the per-sample cost histogram: medians and p99 land in the right bucket, by depth. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <time.h>

#include "sample_cost.h"
#include "sample_cost_reset.h"

/* Ticks that convert to about 'ns' nanoseconds at the calibrated rate. */
static uint64_t ticks(uint64_t ns) {
    uint64_t per_million = sample_cost_ticks_to_ns(1000000);
    return ns * 1000000 / (per_million ? per_million : 1);
}

static void test_quantiles(void **state) {
    (void)state;
    sample_cost_reset();
    /* depth 10: 98 samples at 1000 ns, 2 at 50000 ns; depth 100: 10 samples at 3000 ns. */
    for (int i = 0; i < 98; i++) sample_cost_record(10, ticks(1000));
    for (int i = 0; i < 2; i++) sample_cost_record(10, ticks(50000));
    for (int i = 0; i < 10; i++) sample_cost_record(100, ticks(3000));
    sample_cost_summary s[SAMPLE_COST_DEPTH_BUCKETS];
    sample_cost_summarize(s);
    assert_string_equal(s[0].depths, "1-16");
    assert_int_equal(s[0].count, 100);
    /* Buckets are 1/32 of an octave wide and report their upper edge. */
    assert_true(s[0].median_ns >= 990 && s[0].median_ns <= 1000 * 33 / 32 + 10);
    assert_true(s[0].p99_ns >= 49500 && s[0].p99_ns <= 50000 * 33 / 32 + 100);
    assert_int_equal(s[1].count, 0);
    assert_int_equal(s[2].count, 10);
    assert_true(s[2].median_ns >= 2970 && s[2].median_ns <= 3000 * 33 / 32 + 30);
    assert_int_equal(s[3].count, 0);
    sample_cost_record(100000, 0);
    sample_cost_record(100000, UINT64_MAX);
    sample_cost_summarize(s);
    assert_int_equal(s[3].count, 2);
    sample_cost_reset();
    sample_cost_summarize(s);
    assert_int_equal(s[0].count, 0);
}

static void test_clock_moves(void **state) {
    (void)state;
    sample_cost_reset();
    uint64_t a = sample_cost_now();
    struct timespec ten_ms = {0, 10000000};
    nanosleep(&ten_ms, NULL);
    uint64_t elapsed = sample_cost_ticks_to_ns(sample_cost_now() - a);
    assert_true(elapsed >= 9000000 && elapsed < 100000000);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quantiles),
        cmocka_unit_test(test_clock_moves),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
