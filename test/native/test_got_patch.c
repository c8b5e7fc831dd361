/* got_patch: a library's calls to malloc reach a hook once its import slots are patched, reach malloc again
 * once they are restored, and nothing is left hooked; patching twice changes nothing; a slot bound to
 * another definition is left alone. The library is libnativemem.so, the integration tests' JNI library
 * (its allocation sites need no JVM). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "got_patch.h"

#include <dlfcn.h>
#include <stdlib.h>

static int hook_calls;

static void *counting_malloc(size_t size) {
    hook_calls++;
    return malloc(size);
}

static void test_patch_and_restore(void **state) {
    (void)state;
    void *lib = dlopen(TEST_NATIVEMEM_LIB, RTLD_NOW);
    assert_non_null(lib);
    void (*site_a)(void) = (void (*)(void))dlsym(lib, "nativemem_site_a");
    assert_non_null(site_a);
    got_hook hooks[] = {{"malloc", (void *)malloc, (void *)counting_malloc, NULL}};

    site_a();
    assert_int_equal(hook_calls, 0);
    got_patch_stats st;
    size_t hooked = got_patch_install(hooks, 1, &st);
    assert_true(hooked >= 1);
    assert_int_equal(st.patched, hooked);
    assert_int_equal(st.failed, 0);
    assert_int_equal(got_patch_count_hooked(hooks, 1), hooked);
    site_a();
    site_a();
    assert_int_equal(hook_calls, 2);

    /* Again: the slots hold the hook already, nothing is rewritten. */
    assert_int_equal(got_patch_install(hooks, 1, &st), hooked);
    assert_int_equal(st.patched, 0);

    assert_int_equal(got_patch_restore(hooks, 1), hooked);
    assert_int_equal(got_patch_count_hooked(hooks, 1), 0);
    site_a();
    assert_int_equal(hook_calls, 2);
    dlclose(lib);
}

/* A "real" function nobody resolves to: the library's resolved slots count as bound elsewhere and keep
 * their value (only slots still on their lazy-binding stub, in other objects, may be taken). */
static void test_foreign_binding_left_alone(void **state) {
    (void)state;
    void *lib = dlopen(TEST_NATIVEMEM_LIB, RTLD_NOW);
    assert_non_null(lib);
    void (*site_a)(void) = (void (*)(void))dlsym(lib, "nativemem_site_a");
    got_hook elsewhere[] = {{"malloc", (void *)&hook_calls, (void *)counting_malloc, NULL}};
    got_patch_stats st;
    int before = hook_calls;
    got_patch_install(elsewhere, 1, &st);
    assert_true(st.foreign >= 1);
    site_a();
    assert_int_equal(hook_calls, before);
    got_patch_restore(elsewhere, 1);
    assert_int_equal(got_patch_count_hooked(elsewhere, 1), 0);
    dlclose(lib);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_patch_and_restore),
        cmocka_unit_test(test_foreign_binding_left_alone),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
