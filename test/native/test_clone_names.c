/* Unit tests of GCC clone suffixes in native frame names: the stripping rule on names. The one
 * native resolver (frame_names_native) on a real clone in libjvm: test_native_map.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "demangle.h"

static void expect_stripped(const char *name, const char *want) {
    char buf[256];
    strcpy(buf, name);
    demangle_strip_clones(buf);
    assert_string_equal(buf, want);
}

static void test_demangled_clones(void **state) {
    (void)state;
    expect_stripped("jni_invoke_static [clone .constprop.1]", "jni_invoke_static");
    expect_stripped("CompileBroker::compiler_thread_loop [clone .cold]", "CompileBroker::compiler_thread_loop");
    expect_stripped("f [clone .isra.0] [clone .cold]", "f");
    expect_stripped("ns::g<int> [clone .part.0]", "ns::g<int>");
    char buf[256];
    assert_true(demangle_function("_ZL17jni_invoke_staticP7JNIEnv_P9JavaValueP8_jobject11JNICallTypeP10_jmethodIDP18"
                                  "JNI_ArgumentPusherP10JavaThread.constprop.1", buf, sizeof(buf)));
    demangle_strip_clones(buf);
    assert_string_equal(buf, "jni_invoke_static");
}

static void test_plain_clones(void **state) {
    (void)state;
    expect_stripped("deflate_slow.isra.0", "deflate_slow");
    expect_stripped("inflate.part.0", "inflate");
    expect_stripped("memcpy.cold", "memcpy");
    expect_stripped("fill_window.constprop.0", "fill_window");
    expect_stripped("longest_match.isra.0.cold", "longest_match");
    expect_stripped("foo.constprop.0.isra.0", "foo");
    expect_stripped("bar.lto_priv.0", "bar");
}

static void test_other_names_untouched(void **state) {
    (void)state;
    expect_stripped("deflate", "deflate");
    expect_stripped("libjvm.so", "libjvm.so");           /* a library's name where no symbol was found */
    expect_stripped("[libc.so.6+0x1234]", "[libc.so.6+0x1234]");
    expect_stripped("counter.1", "counter.1");           /* a numbered local, not a clone */
    expect_stripped("x.isra_like", "x.isra_like");
    expect_stripped(".cold", ".cold");                   /* nothing before the suffix: not a clone name */
    expect_stripped("a.cold.b", "a.cold.b");
    expect_stripped("", "");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_demangled_clones),
        cmocka_unit_test(test_plain_clones),
        cmocka_unit_test(test_other_names_untouched),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
