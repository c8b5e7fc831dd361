/* threads: names of ended threads are kept for the latest THREADS_ENDED_KEPT only, and a thread id that
 * a live thread has taken over keeps its name. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "threads.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Thread ids far above any real one here, so /proc/self/task/N does not exist and "tid-N" is the fallback. */
#define BASE 4000000

static int live_tid;
static bool alive(int tid) {
    return tid == live_tid;
}

static void expect_name(int tid, const char *expected) {
    char name[64];
    bool known = threads_get_name(tid, name, sizeof(name));
    assert_string_equal(name, expected);
    assert_int_equal(known, strncmp(expected, "tid-", 4) != 0);   /* "tid-N": the fallback of a thread without one */
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

/* A JVM-internal thread known by its OS name, cut to 15 characters, gets the JVM's full name. */
static void test_cut_os_names_completed(void **state) {
    (void)state;
    int self = (int)syscall(SYS_gettid);
    char saved[16] = "";
    prctl(PR_GET_NAME, saved);
    prctl(PR_SET_NAME, "C2 CompilerThre");
    threads_remember_os_name(self);
    expect_name(self, "C2 CompilerThre");
    assert_true(threads_has_cut_os_names());
    /* Not a continuation of the OS name: refused. */
    assert_false(threads_complete_os_name(self, "C1 CompilerThread0"));
    assert_true(threads_complete_os_name(self, "C2 CompilerThread0"));
    expect_name(self, "C2 CompilerThread0");
    assert_false(threads_has_cut_os_names());
    assert_false(threads_complete_os_name(self, "C2 CompilerThread0 again"));
    /* A name the JVM reported (a Java thread) is never replaced this way, even at 15 characters. */
    threads_set_name(BASE - 1, "fifteen-chars-x");
    assert_false(threads_complete_os_name(BASE - 1, "fifteen-chars-x-and-more"));
    expect_name(BASE - 1, "fifteen-chars-x");
    prctl(PR_SET_NAME, saved);
}

static pthread_barrier_t named, checked;
static int native_tid;

static void *native_thread(void *arg) {
    (void)arg;
    prctl(PR_SET_NAME, "native-worker-n");
    native_tid = (int)syscall(SYS_gettid);
    pthread_barrier_wait(&named);
    pthread_barrier_wait(&checked);
    return NULL;
}

/* A cut name the JVM cannot complete (a native thread's) is looked up once, not at every dump. */
static void test_settled_os_names_not_looked_up_again(void **state) {
    (void)state;
    pthread_t t;
    pthread_barrier_init(&named, NULL, 2);
    pthread_barrier_init(&checked, NULL, 2);
    assert_int_equal(pthread_create(&t, NULL, native_thread, NULL), 0);
    pthread_barrier_wait(&named);
    threads_snapshot_os_names();
    expect_name(native_tid, "native-worker-n");
    assert_true(threads_has_cut_os_names());
    threads_settle_os_names();
    assert_false(threads_has_cut_os_names());
    threads_snapshot_os_names();   /* already named: not new */
    assert_false(threads_has_cut_os_names());
    expect_name(native_tid, "native-worker-n");
    pthread_barrier_wait(&checked);
    pthread_join(t, NULL);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ended_threads_are_forgotten_oldest_first),
        cmocka_unit_test(test_cut_os_names_completed),
        cmocka_unit_test(test_settled_os_names_not_looked_up_again),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
