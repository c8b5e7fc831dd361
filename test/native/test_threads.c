/* threads: names of ended threads are kept for the latest THREADS_ENDED_KEPT only, and a thread id that
 * a live thread has taken over keeps its name. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "threads.h"

#include <stdio.h>
#include <string.h>

/* Thread ids far above any real one here, so /proc/self/task/N does not exist and "tid-N" is the fallback. */
#define BASE 4000000

static int live_tid;
static bool alive(int tid) {
    return tid == live_tid;
}

static void expect_name(int tid, const char *expected) {
    char name[64];
    threads_get_name(tid, name, sizeof(name));
    assert_string_equal(name, expected);
}

static void test_ended_threads_are_forgotten_oldest_first(void **state) {
    (void)state;
    char name[64];
    live_tid = BASE + 1;
    for (int i = 0; i < THREADS_ENDED_KEPT + 10; i++) {
        snprintf(name, sizeof(name), "worker-%d", i);
        threads_set_name(BASE + i, name);
        threads_set_java_id(BASE + i, 100 + i);
        threads_ended(BASE + i, alive);
    }
    /* Ten threads ended beyond the bound: the ten oldest are forgotten, except the one still alive. */
    expect_name(BASE + 0, "tid-4000000");
    assert_int_equal(threads_get_java_id(BASE + 0), 0);
    expect_name(BASE + 1, "worker-1");
    assert_int_equal(threads_get_java_id(BASE + 1), 101);
    expect_name(BASE + 9, "tid-4000009");
    expect_name(BASE + 10, "worker-10");
    assert_int_equal(threads_get_java_id(BASE + 10), 110);
    snprintf(name, sizeof(name), "worker-%d", THREADS_ENDED_KEPT + 9);
    expect_name(BASE + THREADS_ENDED_KEPT + 9, name);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ended_threads_are_forgotten_oldest_first),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
