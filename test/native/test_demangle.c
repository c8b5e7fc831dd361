/* Unit tests of C++ demangling and of the parameter-list stripping the profile uses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "demangle.h"

static char buf[512];

static void both(const char *mangled, const char *full, const char *function) {
    memset(buf, 0, sizeof(buf));
    assert_true(demangle(mangled, buf, sizeof(buf)));
    assert_string_equal(buf, full);
    assert_true(demangle_function(mangled, buf, sizeof(buf)));
    assert_string_equal(buf, function);
}

static void test_known_names(void **state) {
    (void)state;
    both("_ZN13CompileBroker20compiler_thread_loopEv", "CompileBroker::compiler_thread_loop()",
         "CompileBroker::compiler_thread_loop");
    both("_ZN10JavaThread3runEv", "JavaThread::run()", "JavaThread::run");
    both("_ZNK3Foo3barEi", "Foo::bar(int) const", "Foo::bar");
    both("_ZN3FooclEv", "Foo::operator()()", "Foo::operator()");
    both("_ZN2ns3maxIiEET_S1_S1_", "int ns::max<int>(int, int)", "int ns::max<int>");
    both("_ZN12_GLOBAL__N_13fooEv", "(anonymous namespace)::foo()", "(anonymous namespace)::foo");
    both("_ZN13CompileBroker20compiler_thread_loopEv.cold", "CompileBroker::compiler_thread_loop() [clone .cold]",
         "CompileBroker::compiler_thread_loop [clone .cold]");
    both("_ZL8do_thingPFviE", "do_thing(void (*)(int))", "do_thing");
}

static void test_not_mangled(void **state) {
    (void)state;
    strcpy(buf, "untouched");
    assert_false(demangle("deflate", buf, sizeof(buf)));
    assert_false(demangle("i", buf, sizeof(buf)));  /* a type encoding, not a symbol */
    assert_false(demangle("_Z", buf, sizeof(buf)));
    assert_false(demangle("_ZN3Foo", buf, sizeof(buf)));
    assert_false(demangle(NULL, buf, sizeof(buf)));
    assert_false(demangle_function("memcpy", buf, sizeof(buf)));
    assert_string_equal(buf, "untouched");
}

static void test_truncation(void **state) {
    (void)state;
    char small[8];
    assert_true(demangle("_ZN13CompileBroker20compiler_thread_loopEv", small, sizeof(small)));
    assert_string_equal(small, "Compile");
}

static void test_strip_params(void **state) {
    (void)state;
    strcpy(buf, "f(int (*)(char), std::pair<int, int>) const &");
    demangle_strip_params(buf);
    assert_string_equal(buf, "f");
    strcpy(buf, "no_params");
    demangle_strip_params(buf);
    assert_string_equal(buf, "no_params");
    strcpy(buf, "broken)");
    demangle_strip_params(buf);
    assert_string_equal(buf, "broken)");
    strcpy(buf, "()");
    demangle_strip_params(buf);
    assert_string_equal(buf, "()");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_names),
        cmocka_unit_test(test_not_mangled),
        cmocka_unit_test(test_truncation),
        cmocka_unit_test(test_strip_params),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
