/* class_names: signatures spelled as Java names (async-profiler's spelling of allocation classes), interning
 * that gives one id per signature through the table's growth, and the options alloc= / lock= / live. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "class_names.h"
#include "options.h"

#include <stdio.h>
#include <string.h>

static void test_java_names(void **state) {
    (void)state;
    static const char *const cases[][2] = {
        {"Ljava/lang/String;", "java.lang.String"}, {"[I", "int[]"}, {"[[B", "byte[][]"}, {"[J", "long[]"},
        {"[Ljava/lang/Object;", "java.lang.Object[]"}, {"LMain$Inner;", "Main$Inner"}, {"[Z", "boolean[]"},
        {"[[[Ljava/util/Map$Entry;", "java.util.Map$Entry[][][]"}, {"I", "I"}, {"[unknown_class]", "[unknown_class]"},
    };
    char buf[128];
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        class_names_java_name(cases[i][0], buf, sizeof(buf));
        assert_string_equal(buf, cases[i][1]);
    }
    class_names_java_name("Ljava/lang/String;", buf, 5);   /* cut, still terminated */
    assert_int_equal(strlen(buf), 4);
}

static void test_interning(void **state) {
    (void)state;
    char sig[64];
    uint32_t ids[3000];
    for (int i = 0; i < 3000; i++) {   /* past several growths of both tables */
        snprintf(sig, sizeof(sig), "Lpkg/C%d;", i);
        ids[i] = class_names_intern(sig);
        assert_true(ids[i] > 0);
    }
    for (int i = 0; i < 3000; i++) {
        snprintf(sig, sizeof(sig), "Lpkg/C%d;", i);
        assert_int_equal(class_names_intern(sig), ids[i]);
        assert_string_equal(class_names_signature(ids[i]), sig);
        if (i) assert_int_not_equal(ids[i], ids[i - 1]);
    }
    assert_null(class_names_signature(0));
    assert_null(class_names_signature(100000));
    assert_int_equal(class_names_intern(NULL), 0);
}

static void test_options(void **state) {
    (void)state;
    prof_options o;
    char err[512];
    assert_int_equal(options_parse("start,alloc=1m,live", &o, err, sizeof(err)), 0);
    assert_string_equal(o.event, "alloc");   /* without event=, the first other event is the session's */
    assert_int_equal(o.alloc_bytes, 1 << 20);
    assert_true(o.live);
    assert_int_equal(options_parse("start,event=cpu,alloc,lock=1ms", &o, err, sizeof(err)), 0);
    assert_string_equal(o.event, "cpu");
    assert_true(o.extra_events[EVENT_ALLOC] && o.extra_events[EVENT_LOCK]);
    assert_int_equal(o.alloc_bytes, OPTIONS_DEFAULT_ALLOC_BYTES);
    assert_int_equal(o.lock_ns, 1000000);
    assert_int_equal(options_parse("start,lock=0", &o, err, sizeof(err)), 0);
    assert_string_equal(o.event, "lock");
    assert_int_equal(o.lock_ns, 0);
    assert_int_equal(options_parse("start,event=alloc", &o, err, sizeof(err)), 0);
    assert_string_equal(o.event, "alloc");
    assert_int_not_equal(options_parse("start,alloc=12q", &o, err, sizeof(err)), 0);
    assert_non_null(strstr(err, "alloc=12q"));
    assert_int_not_equal(options_parse("start,lock=soon", &o, err, sizeof(err)), 0);
    assert_non_null(strstr(err, "lock=soon"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_java_names),
        cmocka_unit_test(test_interning),
        cmocka_unit_test(test_options),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
