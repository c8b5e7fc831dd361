/* Unit tests of clock_time: the times of day timeout= and loop= take, and the wait until the next one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>
#include <time.h>

#include "clock_time.h"

static uint32_t parsed(const char *text) {
    uint32_t clock = 0;
    assert_int_equal(clock_time_parse(text, &clock), 0);
    return clock;
}

static void test_parse(void **state) {
    (void)state;
    assert_int_equal(parsed("23:00"), 0x01170000u);
    assert_int_equal(parsed("6:05:09"), 0x01060509u);
    assert_int_equal(parsed("*:30"), 0x01ff1e00u);
    assert_int_equal(parsed("*:*:15"), 0x01ffff0fu);
    uint32_t clock;
    const char *bad[] = {"", ":", "24:00", "23:60", "23:00:60", "12:*", "12:30:*", "*:*:*x", "1:2:3:4", "123:00",
                         "12:300", "a:00", "12:", "-1:00", "12 :00", NULL};
    for (int i = 0; bad[i]; i++) {
        if (clock_time_parse(bad[i], &clock) == 0) fail_msg("'%s' was accepted", bad[i]);
    }
    assert_int_equal(clock_time_parse(NULL, &clock), -1);
}

/* 2026-11-25 10:20:30 UTC */
#define NOW ((time_t)1795602030)

static void test_seconds_until(void **state) {
    (void)state;
    setenv("TZ", "UTC", 1);
    tzset();
    assert_int_equal(clock_time_seconds_until(parsed("10:20:31"), NOW), 1);
    assert_int_equal(clock_time_seconds_until(parsed("23:00"), NOW), (23 * 3600) - (10 * 3600 + 20 * 60 + 30));
    /* Passed today (or this very second): tomorrow. */
    assert_int_equal(clock_time_seconds_until(parsed("10:20:30"), NOW), 86400);
    assert_int_equal(clock_time_seconds_until(parsed("00:00"), NOW), 86400 - (10 * 3600 + 20 * 60 + 30));
    /* Any hour: the next half past; any minute: the next :45 second. */
    assert_int_equal(clock_time_seconds_until(parsed("*:30"), NOW), 9 * 60 + 30);
    assert_int_equal(clock_time_seconds_until(parsed("*:00"), NOW), 39 * 60 + 30);
    assert_int_equal(clock_time_seconds_until(parsed("*:*:45"), NOW), 15);
    assert_int_equal(clock_time_seconds_until(parsed("*:*:10"), NOW), 40);
    /* In another zone the same instant is another time of day. */
    setenv("TZ", "IST-5:30", 1);   /* UTC+5:30 (a POSIX zone: no tz database needed): 15:50:30 there */
    tzset();
    assert_int_equal(clock_time_seconds_until(parsed("16:00"), NOW), 9 * 60 + 30);
}

/* Daylight-saving changes (central European rules as a POSIX zone: no tz database needed). */
static void test_daylight_saving(void **state) {
    (void)state;
    setenv("TZ", "CET-1CEST,M3.5.0,M10.5.0/3", 1);
    tzset();
    /* 2024-03-31 04:00 CEST, the day 02:00-03:00 does not exist: 02:30 is the next day's (00:30 UTC), not
     * the 03:30 that today's nonexistent 02:30 normalises to. */
    assert_int_equal(clock_time_seconds_until(parsed("02:30"), (time_t)1711850400), 81000);
    /* 2024-10-27 02:45 CEST, before the clocks go back from 03:00 CEST to 02:00 CET: the next half past is
     * the repeated hour's 02:30 CET, 45 minutes later. */
    assert_int_equal(clock_time_seconds_until(parsed("*:30"), (time_t)1729989900), 2700);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse),
        cmocka_unit_test(test_seconds_until),
        cmocka_unit_test(test_daylight_saving),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
