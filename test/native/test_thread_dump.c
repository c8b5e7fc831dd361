/* Unit tests of thread_dump_parse on thread dumps as JDK 17 and JDK 25 print them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "thread_dump.h"

typedef struct {
    int count;
    int tids[8];
    char names[8][64];
} seen;

static void collect(int tid, const char *name, void *arg) {
    seen *s = arg;
    assert_true(s->count < 8);
    s->tids[s->count] = tid;
    snprintf(s->names[s->count++], sizeof(s->names[0]), "%s", name);
}

static void expect_thread(const seen *s, int i, int tid, const char *name) {
    assert_true(i < s->count);
    assert_int_equal(s->tids[i], tid);
    assert_string_equal(s->names[i], name);
}

static void test_jdk17_hex_nids(void **state) {
    (void)state;
    const char *dump =
        "2026-11-24 02:40:00\nFull thread dump OpenJDK 64-Bit Server VM (17.0.13+11-Debian-2 mixed mode):\n\n"
        "\"main\" #1 prio=5 os_prio=0 cpu=354.51ms elapsed=3.98s tid=0x00007f6e60017ea0 nid=0x183b waiting on condition  [0x00007f6e663fe000]\n"
        "   java.lang.Thread.State: TIMED_WAITING (sleeping)\n"
        "\tat java.lang.Thread.sleep(java.base@17.0.13/Native Method)\n\n"
        "\"C2 CompilerThread0\" #7 daemon prio=9 os_prio=0 cpu=38.86ms elapsed=2.98s tid=0x00007f6e60105360 nid=0x188d waiting on condition  [0x0000000000000000]\n"
        "   No compile task\n\n"
        "\"VM Periodic Task Thread\" os_prio=0 cpu=7.80ms elapsed=2.84s tid=0x00007f6e60110980 nid=0x189b waiting on condition  \n"
        "JNI global refs: 14, weak refs: 0\n";
    seen s = {0};
    thread_dump_parse(dump, collect, &s);
    assert_int_equal(s.count, 3);
    expect_thread(&s, 0, 0x183b, "main");
    expect_thread(&s, 1, 0x188d, "C2 CompilerThread0");
    expect_thread(&s, 2, 0x189b, "VM Periodic Task Thread");
}

static void test_jdk25_decimal_nids(void **state) {
    (void)state;
    const char *dump =
        "\"C1 CompilerThread0\" #18 [6574] daemon prio=9 os_prio=0 cpu=133.86ms elapsed=4.24s tid=0x00007facb80c61e0 nid=6574 waiting on condition  [0x0000000000000000]\n"
        "\"GC Thread#0\" os_prio=0 cpu=0.44ms elapsed=4.98s tid=0x00007facb80576f0 nid=6542 runnable  ";
    seen s = {0};
    thread_dump_parse(dump, collect, &s);
    assert_int_equal(s.count, 2);
    expect_thread(&s, 0, 6574, "C1 CompilerThread0");
    expect_thread(&s, 1, 6542, "GC Thread#0");
}

/* A name holding quotes and " nid=" look-alikes is read up to the last quote before the real nid. */
static void test_names_with_quotes(void **state) {
    (void)state;
    const char *dump = "\"say \"hi\" nid=1\" #30 [77] prio=5 os_prio=0 cpu=1.00ms elapsed=1.00s tid=0x1 nid=77 runnable\n"
                       "\"no nid here\" #31 prio=5\n"
                       "\"bad\" nid=zz\n";
    seen s = {0};
    thread_dump_parse(dump, collect, &s);
    assert_int_equal(s.count, 1);
    expect_thread(&s, 0, 77, "say \"hi\" nid=1");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_jdk17_hex_nids),
        cmocka_unit_test(test_jdk25_decimal_nids),
        cmocka_unit_test(test_names_with_quotes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
