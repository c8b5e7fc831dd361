/* Unit tests of frame naming and include/exclude patterns. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>

#include "names.h"

static char buf[512];

static void test_java_names(void **state) {
    (void)state;
    names_style plain = {0};
    names_java_method(buf, sizeof(buf), "Ljava/util/HashMap;", "get", "(Ljava/lang/Object;)Ljava/lang/Object;", plain);
    assert_string_equal(buf, "java/util/HashMap.get");
    names_java_method(buf, sizeof(buf), "Ljava/util/HashMap;", "get", "(Ljava/lang/Object;)Ljava/lang/Object;",
                      (names_style){.sig = true});
    assert_string_equal(buf, "java/util/HashMap.get(Ljava/lang/Object;)Ljava/lang/Object;");
    names_java_method(buf, sizeof(buf), "Ljava/util/Map$Entry;", "getKey", NULL, (names_style){.dot = true});
    assert_string_equal(buf, "java.util.Map$Entry.getKey");
    names_java_method(buf, sizeof(buf), "Ljava/util/Map$Entry;", "getKey", NULL, (names_style){.simple = true});
    assert_string_equal(buf, "Map$Entry.getKey");
    names_java_method(buf, sizeof(buf), "LMain;", "<init>", NULL, (names_style){.ann = true});
    assert_string_equal(buf, "Main.<init>_[j]");
    /* Hidden classes keep their suffix. */
    names_java_method(buf, sizeof(buf), "Lp/Main$$Lambda$14/0x0000000800c03000;", "run", NULL,
                      (names_style){.simple = true});
    assert_string_equal(buf, "Main$$Lambda$14/0x0000000800c03000.run");
    names_java_method(buf, sizeof(buf), "Lp/Main$$Lambda$14/0x0000000800c03000;", "run", NULL,
                      (names_style){.dot = true});
    assert_string_equal(buf, "p.Main$$Lambda$14/0x0000000800c03000.run");
}

static void test_thread_names(void **state) {
    (void)state;
    names_thread(buf, sizeof(buf), "main", 1234);
    assert_string_equal(buf, "[main tid=1234]");
    /* No name (a thread gone before it was named; a recording's null name): async-profiler's spelling. */
    names_thread(buf, sizeof(buf), "", 77);
    assert_string_equal(buf, "[tid=77]");
    names_thread(buf, sizeof(buf), NULL, 78);
    assert_string_equal(buf, "[tid=78]");
}

static void test_patterns(void **state) {
    (void)state;
    assert_true(names_match("java/util/HashMap.get", "java/util/HashMap.get"));
    assert_false(names_match("java/util/HashMap.get", "java/util/HashMap.getNode"));
    assert_true(names_match("java/*", "java/util/HashMap.get"));
    assert_false(names_match("java/*", "Main.java"));
    assert_true(names_match("*.get", "java/util/HashMap.get"));
    assert_false(names_match("*.get", "java/util/HashMap.getNode"));
    assert_true(names_match("*HashMap*", "java/util/HashMap.get"));
    assert_false(names_match("*TreeMap*", "java/util/HashMap.get"));
    assert_true(names_match("*", "anything"));
}

static char *escaped(const char *name, const char *also) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    names_fputs_escaped(name, also, f);
    fclose(f);
    return buf;
}

/* Names cannot break the line structure of the text formats. */
static void test_escape_rules(void **state) {
    (void)state;
    char *s = escaped("plain java/util/HashMap.get", ";");
    assert_string_equal(s, "plain java/util/HashMap.get");
    free(s);
    s = escaped("[evil\nmain;x 999\r\t\x01\\n tid=7]", ";");
    assert_string_equal(s, "[evil\\nmain\\x3bx 999\\r\\t\\x01\\\\n tid=7]");
    free(s);
    /* Outside collapsed stacks ';' is an ordinary character. */
    s = escaped("a;b\x7f", NULL);
    assert_string_equal(s, "a;b\\x7f");
    free(s);
    /* Non-ASCII (UTF-8) names are left alone. */
    s = escaped("caf\xc3\xa9", ";");
    assert_string_equal(s, "caf\xc3\xa9");
    free(s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_java_names),
        cmocka_unit_test(test_thread_names),
        cmocka_unit_test(test_patterns),
        cmocka_unit_test(test_escape_rules),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
