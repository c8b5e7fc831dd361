/* periodic and stoppable_sleep: ticks come every period, and stopping does not wait for the period to end
 * (a 60 s period stopped after 50 ms must return long before the period: the bound asserts "no hang", it is
 * not a timing goal). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "periodic.h"
#include "clock_ns.h"
#include "stoppable_sleep.h"

#include <time.h>

#define MS 1000000ULL
/* Far below the 60 s period, far above any scheduling delay on a loaded machine. */
#define NO_HANG_NS (10000 * MS)

static _Atomic int ticks;

static void count_tick(void) {
    atomic_fetch_add(&ticks, 1);
}

static void sleep_ms(long ms) {
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

static void test_stop_cuts_a_long_period_short(void **state) {
    (void)state;
    periodic p = {0};
    atomic_store(&ticks, 0);
    assert_int_equal(periodic_start(&p, 60000 * (long)MS, count_tick), 0);
    sleep_ms(50);
    uint64_t t0 = clock_mono_ns();
    periodic_stop(&p);
    assert_true(clock_mono_ns() - t0 < NO_HANG_NS);
    assert_int_equal(atomic_load(&ticks), 0);   /* the first tick is one period after the start */
}

static void test_ticks_every_period_and_restarts(void **state) {
    (void)state;
    periodic p = {0};
    for (int round = 0; round < 2; round++) {   /* a stopped periodic starts again */
        atomic_store(&ticks, 0);
        assert_int_equal(periodic_start(&p, 10 * (long)MS, count_tick), 0);
        assert_int_equal(periodic_start(&p, 10 * (long)MS, count_tick), 0);   /* already running: nothing */
        while (atomic_load(&ticks) < 3) sleep_ms(5);
        periodic_stop(&p);
        int after = atomic_load(&ticks);
        sleep_ms(40);
        assert_int_equal(atomic_load(&ticks), after);   /* joined: no tick after stop */
    }
    periodic_stop(&p);   /* not running: nothing */
}

static void test_sleep_ends_at_deadline_or_stop(void **state) {
    (void)state;
    stoppable_sleep s;
    assert_int_equal(stoppable_sleep_init(&s), 0);
    uint64_t t0 = clock_mono_ns();
    assert_false(stoppable_sleep_until(&s, t0 + 20 * MS));
    assert_true(clock_mono_ns() >= t0 + 20 * MS);
    assert_false(stoppable_sleep_until(&s, t0));   /* a deadline passed: at once */
    stoppable_sleep_stop(&s);
    t0 = clock_mono_ns();
    assert_true(stoppable_sleep_until(&s, t0 + 60000 * MS));   /* stopped before: at once */
    assert_true(clock_mono_ns() - t0 < NO_HANG_NS);
    stoppable_sleep_destroy(&s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stop_cuts_a_long_period_short),
        cmocka_unit_test(test_ticks_every_period_and_restarts),
        cmocka_unit_test(test_sleep_ends_at_deadline_or_stop),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
