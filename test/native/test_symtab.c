/* Unit tests of sorted symbol tables: boundaries, aliases, unknown sizes, nesting. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>

#include "elf_reader.h"
#include "symtab.h"

static symtab *sample_table(void) {
    symtab_builder *b = symtab_builder_new();
    symtab_builder_add(b, 0x1100, 0x100, "c", ELF_BIND_GLOBAL);
    symtab_builder_add(b, 0x1000, 0x10, "a", ELF_BIND_GLOBAL);
    symtab_builder_add(b, 0x1010, 0, "b", ELF_BIND_GLOBAL);  /* unknown size: up to c, at most 0x80 */
    symtab_builder_add(b, 0x1140, 0x10, "c_inner", ELF_BIND_LOCAL);
    symtab_builder_add(b, 0x2000, 0x20, "__x", ELF_BIND_LOCAL);
    symtab_builder_add(b, 0x2000, 0x20, "_y", ELF_BIND_GLOBAL);
    symtab_builder_add(b, 0x2000, 0x20, "v", ELF_BIND_LOCAL);
    symtab_builder_add(b, 0x2000, 0x10, "x", ELF_BIND_GLOBAL);
    symtab_builder_add(b, 0x2000, 0x8, "w", ELF_BIND_WEAK);
    return symtab_builder_finish(b, 0x80);
}

static void expect(const symtab *t, uint64_t addr, const char *name, uint64_t offset) {
    uint64_t off = 12345;
    const char *got = symtab_find(t, addr, &off);
    if (!name) {
        assert_null(got);
        return;
    }
    assert_non_null(got);
    assert_string_equal(got, name);
    assert_int_equal(off, offset);
}

static void test_boundaries(void **state) {
    (void)state;
    symtab *t = sample_table();
    assert_int_equal(symtab_count(t), 5);  /* five aliases at 0x2000 became one */
    expect(t, 0, NULL, 0);
    expect(t, 0xfff, NULL, 0);
    expect(t, 0x1000, "a", 0);
    expect(t, 0x100f, "a", 0xf);
    expect(t, 0x1010, "b", 0);
    expect(t, 0x108f, "b", 0x7f);
    expect(t, 0x1090, NULL, 0);  /* beyond the fill limit */
    expect(t, 0x10ff, NULL, 0);
    expect(t, 0x1100, "c", 0);
    expect(t, 0x1145, "c_inner", 5);
    expect(t, 0x1150, "c", 0x50);  /* after the nested symbol, the enclosing one */
    expect(t, 0x11ff, "c", 0xff);
    expect(t, 0x1200, NULL, 0);
    expect(t, UINT64_MAX, NULL, 0);
    symtab_free(t);
}

static void test_aliases(void **state) {
    (void)state;
    symtab *t = sample_table();
    /* fewer leading underscores, then global beats weak and local; the largest alias size covers */
    expect(t, 0x2000, "x", 0);
    expect(t, 0x201f, "x", 0x1f);
    expect(t, 0x2020, NULL, 0);
    uint64_t start = 0;
    assert_true(symtab_lookup_name(t, "c_inner", &start));
    assert_int_equal(start, 0x1140);
    assert_false(symtab_lookup_name(t, "nope", &start));
    symtab_free(t);
}

static void test_empty_and_last(void **state) {
    (void)state;
    symtab *t = symtab_builder_finish(symtab_builder_new(), 0);
    assert_int_equal(symtab_count(t), 0);
    expect(t, 0x1000, NULL, 0);
    symtab_free(t);
    expect(NULL, 0x1000, NULL, 0);

    /* The last symbol of unknown size gets the fill limit; with no limit, only its first byte. */
    symtab_builder *b = symtab_builder_new();
    symtab_builder_add(b, 0x500, 0, "last", 0);
    t = symtab_builder_finish(b, 0x10);
    expect(t, 0x50f, "last", 0xf);
    expect(t, 0x510, NULL, 0);
    symtab_free(t);
    b = symtab_builder_new();
    symtab_builder_add(b, 0x500, 0, "last", 0);
    t = symtab_builder_finish(b, 0);
    expect(t, 0x500, "last", 0);
    expect(t, 0x501, NULL, 0);
    symtab_free(t);
}

static void test_many(void **state) {
    (void)state;
    /* Every address of a dense table of 10000 symbols, added in reverse order, finds its own. */
    symtab_builder *b = symtab_builder_new();
    char name[32];
    for (int i = 9999; i >= 0; i--) {
        snprintf(name, sizeof(name), "f%d", i);
        symtab_builder_add(b, 0x400000 + (uint64_t)i * 64, 64, name, 0);
    }
    symtab *t = symtab_builder_finish(b, 0);
    assert_int_equal(symtab_count(t), 10000);
    for (int i = 0; i < 10000; i += 7) {
        snprintf(name, sizeof(name), "f%d", i);
        expect(t, 0x400000 + (uint64_t)i * 64 + (uint64_t)(i % 64), name, (uint64_t)(i % 64));
    }
    expect(t, 0x400000 + 10000 * 64, NULL, 0);
    symtab_free(t);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_boundaries),
        cmocka_unit_test(test_aliases),
        cmocka_unit_test(test_empty_and_last),
        cmocka_unit_test(test_many),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
