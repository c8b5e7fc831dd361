/*
 * Unit tests of the unwind tables' page index (dwarf_index.c): with it, dwarf_find must answer exactly the
 * row a plain binary search over the whole table answers, for every pc of real tables (libc's, libjvm's) and
 * at every page size, at the edges of pages and tables, for empty and sparse tables.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <stdlib.h>

#include "dwarf.h"
#include "elf_reader.h"
#include "test_maps.h"

/* The oracle: dwarf_find's answer without the index, its plain binary search over the whole table (the
 * search it made before the index existed, unchanged). */
static const unwind_row *plain_find(const unwind_table *t, uint64_t pc_offset) {
    unwind_table plain = *t;
    plain.page_first = NULL;
    return dwarf_find(&plain, pc_offset);
}

/* Every pc from below the first row to past the last, then the far edges of the pc range. */
static void expect_same_everywhere(unwind_table *t, unsigned shift) {
    assert_true(dwarf_index_build(t, shift));
    assert_non_null(t->page_first);
    uint64_t first = t->rows[0].pc_offset, last = t->rows[t->nrows - 1].pc_offset;
    uint64_t from = first > 64 ? first - 64 : 0;
    for (uint64_t pc = from; pc <= last + 64; pc++) {
        if (dwarf_find(t, pc) != plain_find(t, pc)) fail_msg("shift %u: pc 0x%lx differs", shift, (unsigned long)pc);
    }
    uint64_t edges[] = {0, 1, UINT32_MAX - 1, UINT32_MAX, (uint64_t)UINT32_MAX + 1, UINT64_MAX};
    for (size_t i = 0; i < sizeof(edges) / sizeof(edges[0]); i++)
        assert_ptr_equal(dwarf_find(t, edges[i]), plain_find(t, edges[i]));
}

/* Each row start, one before and one after it: where a wrong page boundary would show. */
static void expect_same_at_rows(unwind_table *t) {
    for (size_t i = 0; i < t->nrows; i++) {
        uint64_t pc = t->rows[i].pc_offset;
        for (uint64_t p = pc ? pc - 1 : 0; p <= pc + 1; p++) assert_ptr_equal(dwarf_find(t, p), plain_find(t, p));
    }
}

static unwind_table *table_of(const char *path) {
    elf_image *img = elf_open(path, NULL, 0);
    if (!img) return NULL;
    unwind_table *t = dwarf_build(img);
    elf_close(img);
    return t;
}

static void test_libc_every_pc_every_page_size(void **state) {
    (void)state;
    char path[PATH_MAX];
    uint64_t start = 0, offset = 0;
    assert_true(test_maps_find("libc.so", path, sizeof(path), &start, &offset));
    unwind_table *t = table_of(path);
    assert_non_null(t);
    assert_true(t->nrows > 1000);
    assert_non_null(t->page_first);  /* dwarf_build made one */
    assert_int_equal(t->page_shift, DWARF_INDEX_SHIFT);
    unsigned shifts[] = {0, 6, DWARF_INDEX_SHIFT, 16, 31};
    for (size_t i = 0; i < sizeof(shifts) / sizeof(shifts[0]); i++) {
        expect_same_everywhere(t, shifts[i]);
        expect_same_at_rows(t);
        /* Never more than 4 entries per row (and a few), whatever was asked for. */
        assert_true(t->npages <= 4 * t->nrows + 16);
    }
    dwarf_free(t);
}

static void test_libjvm(void **state) {
    (void)state;
#ifdef TEST_LIBJVM
    unwind_table *t = table_of(TEST_LIBJVM);
    assert_non_null(t);
    assert_true(t->nrows > 10000);
    print_message("libjvm.so: %zu rows (%zu bytes), page index %zu entries of %u bytes of text (%zu bytes)\n",
                  t->nrows, t->nrows * sizeof(unwind_row), t->npages + 1, 1u << t->page_shift, dwarf_index_bytes(t));
    expect_same_everywhere(t, DWARF_INDEX_SHIFT);
    expect_same_at_rows(t);
    dwarf_free(t);
#else
    skip();
#endif
}

static unwind_row row_at(uint32_t pc, uint8_t reg) {
    return (unwind_row){.pc_offset = pc, .cfa_offset = 8, .fp_offset = UNWIND_FP_SAME, .cfa_reg = reg};
}

static void test_small_tables(void **state) {
    (void)state;
    /* Empty: no index, no row. */
    unwind_table empty = {0};
    assert_true(dwarf_index_build(&empty, DWARF_INDEX_SHIFT));
    assert_null(empty.page_first);
    assert_int_equal(dwarf_index_bytes(&empty), 0);
    assert_null(dwarf_find(&empty, 0));
    assert_null(dwarf_find(&empty, 0x1000));

    /* One row: covers everything from its start up. */
    unwind_row one[] = {row_at(0x1000, UNWIND_SP)};
    unwind_table t1 = {.rows = one, .nrows = 1};
    expect_same_everywhere(&t1, 4);
    assert_null(dwarf_find(&t1, 0xfff));
    assert_ptr_equal(dwarf_find(&t1, 0x1000), &one[0]);
    assert_ptr_equal(dwarf_find(&t1, 0x5000), &one[0]);
    free(t1.page_first);

    /* Rows exactly on page starts, one just before, one just after, and a gap (UNWIND_NONE). */
    unwind_row edges[] = {row_at(0x100, UNWIND_SP), row_at(0x10f, UNWIND_FP), row_at(0x110, UNWIND_SP),
                          row_at(0x111, UNWIND_UNKNOWN), row_at(0x120, UNWIND_NONE), row_at(0x150, UNWIND_END),
                          row_at(0x15f, UNWIND_SP), row_at(0x160, UNWIND_NONE)};
    unwind_table te = {.rows = edges, .nrows = sizeof(edges) / sizeof(edges[0])};
    for (unsigned shift = 0; shift <= 8; shift++) expect_same_everywhere(&te, shift);
    assert_null(dwarf_find(&te, 0x130));
    assert_ptr_equal(dwarf_find(&te, 0x15f), &edges[6]);
    assert_null(dwarf_find(&te, 0x160));
    free(te.page_first);

    /* Sparse: two rows 4 GB apart would need 2^32 one-byte pages; the index widens its pages instead. */
    unwind_row sparse[] = {row_at(0x10, UNWIND_SP), row_at(0x20, UNWIND_NONE), row_at(0xfffffff0u, UNWIND_FP),
                           row_at(UINT32_MAX, UNWIND_NONE)};
    unwind_table ts = {.rows = sparse, .nrows = 4};
    assert_true(dwarf_index_build(&ts, 0));
    assert_true(ts.npages <= 4 * 4 + 16);
    assert_true(dwarf_index_bytes(&ts) <= (4 * 4 + 17) * sizeof(uint32_t));
    uint64_t probes[] = {0, 0xf, 0x10, 0x1f, 0x20, 0x80000000u, 0xffffffefu, 0xfffffff0u, UINT32_MAX - 1, UINT32_MAX,
                         (uint64_t)UINT32_MAX + 1};
    for (size_t i = 0; i < sizeof(probes) / sizeof(probes[0]); i++)
        assert_ptr_equal(dwarf_find(&ts, probes[i]), plain_find(&ts, probes[i]));
    assert_ptr_equal(dwarf_find(&ts, 0xfffffff5u), &sparse[2]);
    free(ts.page_first);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_small_tables),
        cmocka_unit_test(test_libc_every_pc_every_page_size),
        cmocka_unit_test(test_libjvm),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
