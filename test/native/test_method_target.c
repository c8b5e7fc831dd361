/* Unit tests of the instrumentation target syntax (method_target) and its place in the option grammar. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "method_target.h"
#include "options.h"

static method_target t;
static char err[OPTIONS_ERROR_MAX];

static void parses(const char *text) {
    err[0] = 0;
    if (method_target_parse(text, &t, err, sizeof(err))) fail_msg("'%s' refused: %s", text, err);
}

static void refused(const char *text, const char *must_mention) {
    err[0] = 0;
    assert_int_equal(method_target_parse(text, &t, err, sizeof(err)), -1);
    if (!strstr(err, must_mention)) fail_msg("error for '%s' does not name '%s': %s", text, must_mention, err);
    /* Every refusal names the value and says what is accepted. */
    if (!strstr(err, text) || !strstr(err, "accepted: pkg.Class.method")) fail_msg("error for '%s': %s", text, err);
}

static void test_what_is_a_target(void **state) {
    (void)state;
    assert_true(method_target_is_target("com.example.Cache.get"));
    assert_true(method_target_is_target("*.*"));
    assert_true(method_target_is_target("Foo*"));
    assert_false(method_target_is_target("cpu"));
    assert_false(method_target_is_target("cpu-clock"));
    assert_false(method_target_is_target("page-faults"));
    assert_false(method_target_is_target(""));
}

static void test_plain_method(void **state) {
    (void)state;
    parses("com.example.Cache.get");
    assert_string_equal(t.class_name, "com/example/Cache");
    assert_false(t.class_prefix);
    assert_string_equal(t.method, "get");
    assert_false(t.method_prefix);
    assert_string_equal(t.descriptor, "");
    assert_true(method_target_matches(&t, "com/example/Cache", "get", "(Ljava/lang/Object;)Ljava/lang/Object;"));
    assert_true(method_target_matches(&t, "com/example/Cache", "get", "()V"));
    assert_false(method_target_matches(&t, "com/example/Cache", "getAll", "()V"));
    assert_false(method_target_matches(&t, "com/example/CacheX", "get", "()V"));
    assert_false(method_target_matches(&t, "com/example/Cach", "get", "()V"));
    assert_true(method_target_matches_class(&t, "com/example/Cache"));
    assert_false(method_target_matches_class(&t, "com/example/Cache$Entry"));
    /* Slashes are the JVM's own spelling; nested classes keep their '$'. */
    parses("com/example/Cache$Entry.key");
    assert_string_equal(t.class_name, "com/example/Cache$Entry");
    parses("Main.run");
    assert_string_equal(t.class_name, "Main");
}

static void test_descriptor_selects_one_overload(void **state) {
    (void)state;
    parses("pkg.Overloads.pick(Ljava/lang/String;)V");
    assert_string_equal(t.method, "pick");
    assert_string_equal(t.descriptor, "(Ljava/lang/String;)V");
    assert_true(method_target_matches(&t, "pkg/Overloads", "pick", "(Ljava/lang/String;)V"));
    assert_false(method_target_matches(&t, "pkg/Overloads", "pick", "(I)V"));
    parses("a.B.c([[IJLjava/util/List;D)[Ljava/lang/String;");
    parses("a.B.<init>()V");
    assert_true(method_target_matches(&t, "a/B", "<init>", "()V"));
}

static void test_wildcards(void **state) {
    (void)state;
    parses("pkg.Class.*");
    assert_true(method_target_matches(&t, "pkg/Class", "anything", "()V"));
    assert_true(method_target_matches(&t, "pkg/Class", "<init>", "()V"));
    assert_false(method_target_matches(&t, "pkg/ClassB", "anything", "()V"));
    parses("java.lang.*.<init>");
    assert_string_equal(t.class_name, "java/lang/");
    assert_true(t.class_prefix);
    assert_true(method_target_matches(&t, "java/lang/Thread", "<init>", "()V"));
    assert_true(method_target_matches(&t, "java/lang/invoke/MethodType", "<init>", "()V"));
    assert_false(method_target_matches(&t, "java/lang/Thread", "run", "()V"));
    assert_false(method_target_matches(&t, "java/util/ArrayList", "<init>", "()V"));
    parses("java.lang.Thread.<in*");
    assert_string_equal(t.method, "<in");
    assert_true(method_target_matches(&t, "java/lang/Thread", "<init>", "(Ljava/lang/Runnable;)V"));
    assert_false(method_target_matches(&t, "java/lang/Thread", "<clinit>", "()V"));
    parses("pkg.Work.step*");
    assert_true(method_target_matches(&t, "pkg/Work", "step", "()V"));
    assert_true(method_target_matches(&t, "pkg/Work", "stepTwo", "()V"));
    assert_false(method_target_matches(&t, "pkg/Work", "ste", "()V"));
    parses("pkg.Wor*.run");
    assert_true(method_target_matches(&t, "pkg/Worker", "run", "()V"));
    assert_true(method_target_matches(&t, "pkg/Wor", "run", "()V"));
    parses("*.*");
    assert_true(method_target_matches(&t, "Main", "main", "([Ljava/lang/String;)V"));
    assert_true(method_target_matches(&t, "java/util/HashMap", "<clinit>", "()V"));
    parses("*.<init>");
    assert_true(method_target_matches(&t, "x/Y", "<init>", "()V"));
    assert_false(method_target_matches(&t, "x/Y", "init", "()V"));
    parses("*.*(I)V");
    assert_true(method_target_matches(&t, "x/Y", "f", "(I)V"));
    assert_false(method_target_matches(&t, "x/Y", "f", "(J)V"));
}

static void test_bad_targets(void **state) {
    (void)state;
    refused("Foo*", "separated by '.'");
    refused("*", "separated by '.'");
    refused(".run", "no class name");
    refused("pkg.Class.", "no method name");
    refused("java..Thread.run", "empty package");
    refused("java.*.Thread.run", "end of the class name");
    refused("pkg.Class.g*t", "end of the method name");
    refused("pkg.Class.<foo>", "<init> and <clinit>");
    refused("pkg.Class.<x*", "<init> and <clinit>");
    refused("pkg.Class.run(", "JVM method descriptor");
    refused("pkg.Class.run(I)", "JVM method descriptor");
    refused("pkg.Class.run(Ljava.lang.String;)V", "JVM method descriptor");
    refused("pkg.Class.run(L;)V", "JVM method descriptor");
    refused("pkg.Class.run(Q)V", "JVM method descriptor");
    refused("pkg.Class.run()VV", "JVM method descriptor");
    refused("pkg.Class.run(String)V", "JVM method descriptor");
    refused("pkg.Cl;ass.run", "';' cannot appear");
    refused("pkg.Class.r[un", "'[' cannot appear");
}

static void test_in_options(void **state) {
    (void)state;
    prof_options o;
    assert_int_equal(options_parse("start,event=java.util.ArrayList.<init>,interval=10", &o, err, sizeof(err)), 0);
    assert_string_equal(o.event, "java.util.ArrayList.<init>");
    assert_int_equal(o.interval_ns, 10);
    assert_int_equal(options_parse("start,event=pkg.C.m(Ljava/lang/String;)V,file=x.html", &o, err, sizeof(err)), 0);
    assert_string_equal(o.event, "pkg.C.m(Ljava/lang/String;)V");
    assert_int_equal(options_parse("start,event=java..X.y", &o, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "event=java..X.y"));
    /* The interval of a method target counts calls: a duration is refused. */
    assert_int_equal(options_parse("start,event=a.B.c,interval=10ms", &o, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "number of calls"));
    assert_int_equal(options_parse("start,interval=1ms,event=a.B.c", &o, err, sizeof(err)), -1);
    assert_int_equal(options_parse("start,interval=1ms,event=cpu", &o, err, sizeof(err)), 0);
    /* An unknown engine name still says methods are accepted too. */
    assert_int_equal(options_parse("start,event=foo", &o, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "pkg.Class.method"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_what_is_a_target), cmocka_unit_test(test_plain_method),
        cmocka_unit_test(test_descriptor_selects_one_overload), cmocka_unit_test(test_wildcards),
        cmocka_unit_test(test_bad_targets), cmocka_unit_test(test_in_options),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
