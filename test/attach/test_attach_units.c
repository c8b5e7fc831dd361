/* Unit tests of jprof's pure parts: the command line, the agent option string, the HotSpot reply parser,
 * the main-class finder. (The private directory and the target's files: test_target_fs.c.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hotspot_attach.h"
#include "jprof_args.h"
#include "jvm_finder.h"
#include "options.h"

static char err[512];

/* argv as main() gets it: NULL-terminated, argc not counting the NULL. */
#define PARSE(a, ...)                                                                                   \
    jprof_args_parse(sizeof((char *[]){"jprof", __VA_ARGS__, NULL}) / sizeof(char *) - 1,                  \
                     (char *[]){"jprof", __VA_ARGS__, NULL}, (a), err, sizeof(err))

static void test_default_action_is_collect_for_60s(void **state) {
    (void)state;
    jprof_args a;
    assert_int_equal(PARSE(&a, "1234"), 0);
    assert_int_equal(a.action, JPROF_COLLECT);
    assert_int_equal(a.duration_s, 60);
    assert_string_equal(a.target, "1234");
    assert_int_equal(PARSE(&a, "-d", "3", "-f", "out.collapsed", "MyMain"), 0);
    assert_int_equal(a.duration_s, 3);
    assert_string_equal(a.file, "out.collapsed");
    assert_string_equal(a.target, "MyMain");
}

static void test_flags_become_agent_options(void **state) {
    (void)state;
    jprof_args a;
    assert_int_equal(PARSE(&a, "start", "-e", "itimer", "-i", "1ms", "-t", "-j", "64", "-I", "java/*", "-I",
                           "*Foo", "-X", "*Bar", "-s", "-g", "-a", "-l", "--title", "My title", "--minwidth", "0.5",
                           "--reverse", "--inverted", "--all-user", "--cstack", "fp", "--timeout", "30", "-L", "warn",
                           "--total", "42"),
                     0);
    assert_int_equal(a.action, JPROF_START);
    assert_string_equal(a.profiling, "event=itimer,interval=1ms,threads,jstackdepth=64,include=java/*,include=*Foo,"
                                     "exclude=*Bar,simple,sig,ann,lib,title=My title,minwidth=0.5,reverse,inverted,"
                                     "alluser,cstack=fp,timeout=30,loglevel=warn,total");
    /* asprof's perf event CPU flags */
    assert_int_equal(PARSE(&a, "-e", "cpu-clock", "--target-cpu", "1", "--record-cpu", "42"), 0);
    assert_string_equal(a.profiling, "event=cpu-clock,target-cpu=1,record-cpu");
}

static void test_agent_option_string_per_action(void **state) {
    (void)state;
    jprof_args a;
    char out[JPROF_OPTIONS_MAX];
    assert_int_equal(PARSE(&a, "-e", "cpu", "-L", "warn", "-o", "collapsed", "1"), 0);
    assert_int_equal(jprof_args_agent_options(&a, "start", "/tmp/d/p", "/tmp/d/log", out, sizeof(out)), 0);
    assert_string_equal(out, "start,event=cpu,loglevel=warn,collapsed,timeout=65,file=/tmp/d/p,log=/tmp/d/log");
    assert_int_equal(jprof_args_agent_options(&a, "status", "/tmp/d/p", "/tmp/d/log", out, sizeof(out)), 0);
    assert_string_equal(out, "status,loglevel=warn,file=/tmp/d/p,log=/tmp/d/log");
    assert_int_equal(jprof_args_agent_options(&a, "stop", "", NULL, out, sizeof(out)), 0);
    assert_string_equal(out, "stop,event=cpu,loglevel=warn,collapsed");
    /* What jprof sends for supported flags is what the agent's own parser accepts. */
    prof_options o;
    assert_int_equal(options_parse(out, &o, err, sizeof(err)), 0);
    assert_int_equal(o.action, ACTION_STOP);
    assert_int_equal(o.format, FORMAT_COLLAPSED);
}

/* asprof's spellings: collect spelled out, -v, load (no action sent), metrics, --loop, jps. */
static void test_asprof_parity(void **state) {
    (void)state;
    jprof_args a;
    char out[JPROF_OPTIONS_MAX];
    assert_int_equal(PARSE(&a, "collect", "-d", "2", "jps"), 0);
    assert_int_equal(a.action, JPROF_COLLECT);
    assert_string_equal(a.target, "jps");
    assert_int_equal(PARSE(&a, "-v"), 0);
    assert_true(a.version);
    assert_int_equal(PARSE(&a, "--version"), 0);
    assert_true(a.version);
    assert_int_equal(PARSE(&a, "load", "1"), 0);
    assert_int_equal(a.action, JPROF_LOAD);
    assert_int_equal(jprof_args_agent_options(&a, "load", "", "/tmp/d/log", out, sizeof(out)), 0);
    assert_string_equal(out, "log=/tmp/d/log");
    assert_int_equal(PARSE(&a, "metrics", "1"), 0);
    assert_int_equal(a.action, JPROF_METRICS);
    assert_int_equal(PARSE(&a, "start", "--loop", "30s", "-f", "p-%n{4}.jfr", "1"), 0);
    assert_int_equal(jprof_args_agent_options(&a, "start", "/x/p-%n{4}.jfr", NULL, out, sizeof(out)), 0);
    assert_string_equal(out, "start,loop=30s,file=/x/p-%n{4}.jfr");
    prof_options o;
    assert_int_equal(options_parse(out, &o, err, sizeof(err)), 0);
    assert_int_equal(o.loop_ns, 30000000000ULL);
}

static void test_bad_command_lines(void **state) {
    (void)state;
    jprof_args a;
    assert_int_equal(PARSE(&a, "status"), -1);
    assert_non_null(strstr(err, "no target"));
    assert_int_equal(PARSE(&a, "start", "-d", "5", "1"), -1);
    assert_non_null(strstr(err, "-d applies only without an action"));
    assert_int_equal(PARSE(&a, "--include", "a,b", "1"), -1);
    assert_non_null(strstr(err, "','"));
    assert_int_equal(PARSE(&a, "--bogus", "1"), -1);
    assert_non_null(strstr(err, "--bogus"));
    /* asprof's flags for what libprof does not have: refused saying why, as the agent refuses them. */
    assert_int_equal(PARSE(&a, "--sched", "1234"), -1);
    assert_non_null(strstr(err, "'--sched' (asprof's) is not supported"));
    /* --fdtransfer: jprof's own (it starts the helper), not an agent option as it is given */
    assert_int_equal(PARSE(&a, "--fdtransfer", "-e", "cpu", "1234"), 0);
    assert_true(a.fdtransfer);
    assert_string_equal(a.profiling, "event=cpu");
    snprintf(a.fdtransfer_name, sizeof(a.fdtransfer_name), "libprof-fdtransfer-1-2");
    char with_helper[JPROF_OPTIONS_MAX];
    assert_int_equal(jprof_args_agent_options(&a, "start", "", NULL, with_helper, sizeof(with_helper)), 0);
    assert_string_equal(with_helper, "start,event=cpu,timeout=65,fdtransfer=libprof-fdtransfer-1-2");
    assert_int_equal(jprof_args_agent_options(&a, "stop", "", NULL, with_helper, sizeof(with_helper)), 0);
    assert_string_equal(with_helper, "stop,event=cpu");
    assert_int_equal(PARSE(&a, "-d", "x", "1"), -1);
    assert_int_equal(PARSE(&a, "-e"), -1);
    assert_non_null(strstr(err, "-e needs a value"));
    assert_int_equal(PARSE(&a, "1", "2"), -1);
    assert_int_equal(PARSE(&a, "list"), 0);
    assert_int_equal(a.action, JPROF_LIST);
    assert_int_equal(PARSE(&a, "--help"), 0);
    assert_true(a.help);
}

/* Pids given as digits are checked for range: 2^32 + a pid, 2^64 and beyond, and 0 are refused, naming them. */
static void test_pid_overflow(void **state) {
    (void)state;
    char err[256];
    int pid = 0;
    assert_int_equal(jprof_args_pid("1234", &pid, err, sizeof(err)), 1);
    assert_int_equal(pid, 1234);
    assert_int_equal(jprof_args_pid("Main", &pid, err, sizeof(err)), 0);
    const char *bad[] = {"4294967297", "4294968530", "18446744073709551617", "99999999999999999999999", "0", "2147483648"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
        err[0] = 0;
        assert_int_equal(jprof_args_pid(bad[i], &pid, err, sizeof(err)), -1);
        assert_non_null(strstr(err, bad[i]));
        assert_non_null(strstr(err, "is not a process id"));
    }
}

static void test_load_replies(void **state) {
    (void)state;
    load_reply r;
    assert_int_equal(hotspot_parse_load_reply("0\nreturn code: 0\n", &r), 0);
    assert_int_equal(r.attach_code, 0);
    assert_true(r.have_agent_code);
    assert_int_equal(r.agent_code, 0);
    assert_int_equal(hotspot_parse_load_reply("0\nreturn code: -1\n", &r), 0);
    assert_int_equal(r.agent_code, -1);
    assert_int_equal(hotspot_parse_load_reply("0\n0\n", &r), 0);   /* JDK 8 style */
    assert_true(r.have_agent_code);
    assert_int_equal(hotspot_parse_load_reply("-1\n/x.so was not loaded.\n/x.so: file too short\n", &r), 0);
    assert_int_equal(r.attach_code, -1);
    assert_false(r.have_agent_code);
    assert_string_equal(r.message, "/x.so was not loaded.\n/x.so: file too short");
    assert_int_equal(hotspot_parse_load_reply("garbage\n", &r), -1);
    assert_int_equal(hotspot_parse_load_reply("", &r), -1);
}

static void check_main(const char *args, size_t len, const char *expected) {
    char out[256];
    if (!expected) {
        assert_int_equal(jvm_finder_main_class(args, len, out, sizeof(out)), -1);
        return;
    }
    assert_int_equal(jvm_finder_main_class(args, len, out, sizeof(out)), 0);
    assert_string_equal(out, expected);
}

#define ARGS(s) s, sizeof(s) - 1

static void test_main_class_from_command_line(void **state) {
    (void)state;
    check_main(ARGS("java\0-cp\0/a:/b\0-Xmx1g\0-Dx=y\0com.acme.Main\0arg\0"), "com.acme.Main");
    check_main(ARGS("/usr/bin/java\0--class-path\0x\0-jar\0/opt/app.jar\0"), "/opt/app.jar");
    check_main(ARGS("java\0--module-path\0mods\0-m\0my.mod/my.pkg.Main\0"), "my.pkg.Main");
    check_main(ARGS("java\0-version\0"), NULL);
    assert_true(jvm_finder_matches("com.acme.Main", "Main"));
    assert_true(jvm_finder_matches("com.acme.Main", "com.acme.Main"));
    assert_true(jvm_finder_matches("/opt/app.jar", "app.jar"));
    assert_false(jvm_finder_matches("/opt/app.jar", "jar"));
    assert_false(jvm_finder_matches("com.acme.Main", "acme"));
}

/* -d sends the agent its own way out: a timeout a little past the duration, with the start only. */
static void test_collect_sends_a_safety_timeout(void **state) {
    (void)state;
    jprof_args a;
    char out[JPROF_OPTIONS_MAX];
    assert_int_equal(PARSE(&a, "-d", "5", "-e", "cpu", "1"), 0);
    assert_int_equal(a.start_timeout_s, 5 + JPROF_SAFETY_MARGIN_S);
    assert_int_equal(jprof_args_agent_options(&a, "start", "/f", NULL, out, sizeof(out)), 0);
    char want[64];
    snprintf(want, sizeof(want), "start,event=cpu,timeout=%d,file=/f", 5 + JPROF_SAFETY_MARGIN_S);
    assert_string_equal(out, want);
    prof_options o;
    assert_int_equal(options_parse(out, &o, err, sizeof(err)), 0);
    assert_int_equal(o.timeout_s, 5 + JPROF_SAFETY_MARGIN_S);
    assert_int_equal(jprof_args_agent_options(&a, "stop", "/f", NULL, out, sizeof(out)), 0);
    assert_null(strstr(out, "timeout"));
    assert_int_equal(PARSE(&a, "1"), 0);   /* no -d: 60 s */
    assert_int_equal(a.start_timeout_s, 60 + JPROF_SAFETY_MARGIN_S);
    /* The user's own --timeout is kept as given; start without -d sets none. */
    assert_int_equal(PARSE(&a, "-d", "5", "--timeout", "3", "1"), 0);
    assert_int_equal(a.start_timeout_s, 0);
    assert_int_equal(PARSE(&a, "start", "1"), 0);
    assert_int_equal(a.start_timeout_s, 0);
}

/* --loop runs until stopped: with -d jprof stops it (no safety timeout, which loop= refuses); without -d it
 * starts the loop and returns, as asprof does. */
static void test_loop_is_never_given_a_timeout(void **state) {
    (void)state;
    jprof_args a;
    char out[JPROF_OPTIONS_MAX];
    prof_options o;
    assert_int_equal(PARSE(&a, "--loop", "2s", "-d", "5", "1"), 0);
    assert_int_equal(a.action, JPROF_COLLECT);
    assert_int_equal(a.start_timeout_s, 0);
    assert_int_equal(jprof_args_agent_options(&a, "start", "/f-%n", NULL, out, sizeof(out)), 0);
    assert_null(strstr(out, "timeout"));
    assert_int_equal(options_parse(out, &o, err, sizeof(err)), 0);
    assert_int_equal(PARSE(&a, "--loop", "1h", "1"), 0);
    assert_int_equal(a.action, JPROF_START);
    assert_int_equal(a.start_timeout_s, 0);
}

/* asprof's habits: --timeout alone starts and returns; agent options by their long names; --filter's
 * commas; -o with several format options. */
static void test_asprof_spellings(void **state) {
    (void)state;
    jprof_args a;
    char out[JPROF_OPTIONS_MAX];
    prof_options o;
    assert_int_equal(PARSE(&a, "--timeout", "3", "1"), 0);
    assert_int_equal(a.action, JPROF_START);
    assert_int_equal(PARSE(&a, "--threads", "--event", "wall", "--interval", "5ms", "--chunksize", "1m",
                           "--filter", "120-127,132", "-o", "traces=5,flat=3", "1"), 0);
    assert_int_equal(jprof_args_agent_options(&a, "start", "/tmp/f.txt", NULL, out, sizeof(out)), 0);
    assert_int_equal(options_parse(out, &o, err, sizeof(err)), 0);
    assert_true(o.threads);
    assert_string_equal(o.event, "wall");
    assert_int_equal(o.interval_ns, 5000000);
    assert_int_equal(o.chunk_size, 1 << 20);
    assert_int_equal(o.tid_range_count, 2);
    assert_int_equal(o.traces, 5);
    assert_int_equal(o.flat, 3);
    assert_int_equal(PARSE(&a, "--title", "Checkout, EU", "1"), 0);
    assert_int_equal(jprof_args_agent_options(&a, "start", "/tmp/f.txt", NULL, out, sizeof(out)), 0);
    assert_int_equal(options_parse(out, &o, err, sizeof(err)), 0);
    assert_string_equal(o.title, "Checkout, EU");
    /* asprof's -F, its features separated by commas, and the long spelling */
    assert_int_equal(PARSE(&a, "-F", "agct,nosigtrap", "1"), 0);
    assert_int_equal(jprof_args_agent_options(&a, "start", "/tmp/f.txt", NULL, out, sizeof(out)), 0);
    assert_int_equal(options_parse(out, &o, err, sizeof(err)), 0);
    assert_int_equal(o.features, PROF_FEATURE_AGCT | PROF_FEATURE_NOSIGTRAP);
    assert_int_equal(PARSE(&a, "--features", "agct", "1"), 0);
    assert_int_equal(jprof_args_agent_options(&a, "start", "/tmp/f.txt", NULL, out, sizeof(out)), 0);
    assert_int_equal(options_parse(out, &o, err, sizeof(err)), 0);
    assert_int_equal(o.features, PROF_FEATURE_AGCT);
    assert_int_not_equal(PARSE(&a, "--start", "1"), 0);   /* actions are words, not flags */
    assert_int_not_equal(PARSE(&a, "jcmd", "1234"), 0);
    assert_non_null(strstr(err, "unknown action 'jcmd'"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_action_is_collect_for_60s),
        cmocka_unit_test(test_loop_is_never_given_a_timeout),
        cmocka_unit_test(test_asprof_spellings),
        cmocka_unit_test(test_flags_become_agent_options),
        cmocka_unit_test(test_agent_option_string_per_action),
        cmocka_unit_test(test_asprof_parity),
        cmocka_unit_test(test_bad_command_lines),
        cmocka_unit_test(test_pid_overflow),
        cmocka_unit_test(test_load_replies),
        cmocka_unit_test(test_main_class_from_command_line),
        cmocka_unit_test(test_collect_sends_a_safety_timeout),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
