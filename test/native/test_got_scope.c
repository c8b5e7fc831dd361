/* got_scope: where an object's lazy slots would bind. A plain library (libnativemem.so) binds the allocator
 * family to the process's definitions; one whose own scope defines it (libbump_user_a.so beside
 * libbump_alloc.so, as loaded with RTLD_DEEPBIND) does not; a copy of the plain library in a dlmopen
 * namespace (whose C library is its own) is not even listed to the walk. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "got_scope.h"

#include <dlfcn.h>
#include <link.h>
#include <string.h>

static const char *const family[] = {"malloc", "calloc", "realloc", "free", NULL};

typedef struct {
    const char *suffix;
    int seen, binds;   /* objects seen with that name, and how many of them bind globally */
} probe;

static int visit(struct dl_phdr_info *info, size_t size, void *arg) {
    (void)size;
    probe *p = arg;
    size_t n = strlen(info->dlpi_name), k = strlen(p->suffix);
    if (n < k || strcmp(info->dlpi_name + n - k, p->suffix) != 0) return 0;
    const ElfW(Dyn) *dyn = NULL;
    for (int i = 0; i < info->dlpi_phnum; i++)
        if (info->dlpi_phdr[i].p_type == PT_DYNAMIC) dyn = (const ElfW(Dyn) *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
    p->seen++;
    p->binds += got_scope_binds_globally(dyn, info->dlpi_addr, family);
    return 0;
}

static probe look(const char *suffix) {
    probe p = {suffix, 0, 0};
    dl_iterate_phdr(visit, &p);
    return p;
}

static void test_plain_library_binds_globally(void **state) {
    (void)state;
    void *lib = dlopen(TEST_NATIVEMEM_LIB, RTLD_NOW);
    assert_non_null(lib);
    probe p = look("/libnativemem.so");
    assert_int_equal(p.seen, 1);
    assert_int_equal(p.binds, 1);
    dlclose(lib);
}

static void test_own_allocator_in_scope(void **state) {
    (void)state;
    void *lib = dlopen(TEST_BUMP_USER_LIB, RTLD_LAZY | RTLD_LOCAL | RTLD_DEEPBIND);
    assert_non_null(lib);
    assert_int_equal(look("/libbump_user_a.so").binds, 0);
    assert_int_equal(look("/libbump_alloc.so").binds, 0);   /* it defines the family itself */
    dlclose(lib);
}

static void test_other_namespace(void **state) {
    (void)state;
    void *base = dlopen(TEST_NATIVEMEM_LIB, RTLD_NOW);
    void *other = dlmopen(LM_ID_NEWLM, TEST_NATIVEMEM_LIB, RTLD_NOW);
    assert_non_null(base);
    if (!other) {
        print_message("  (skipped: dlmopen: %s)\n", dlerror());
        dlclose(base);
        skip();
    }
    /* glibc's dl_iterate_phdr lists the caller's namespace only: the other copy is never looked at (never
     * hooked), and the base one still binds globally. */
    probe p = look("/libnativemem.so");
    assert_int_equal(p.seen, 1);
    assert_int_equal(p.binds, 1);
    dlclose(other);
    dlclose(base);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain_library_binds_globally),
        cmocka_unit_test(test_own_allocator_in_scope),
        cmocka_unit_test(test_other_namespace),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
