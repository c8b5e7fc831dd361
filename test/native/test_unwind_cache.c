/*
 * Unit tests of unwind_cache (pc -> unwind row for the native steps) and of native_map_row, which looks
 * rows up through it: a hit gives back exactly the row stored for that pc and range set, another pc or set
 * misses, a colliding pc evicts, racing writers never give a reader a row mixed from two puts, and for
 * every pc of libc the cached answer is the uncached one.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "race_run.h"

#include "native_map.h"
#include "unwind_cache.h"

#define PC 0x7f0012345678ULL

static const int sets[3];   /* three distinct range set addresses */

static unwind_row row_of(uint64_t which) {
    static const unwind_row rows[3] = {
        {.cfa_offset = 8, .fp_offset = UNWIND_FP_SAME, .cfa_reg = UNWIND_SP, .ra_slot = -1},
        {.cfa_offset = -123456, .fp_offset = -16, .cfa_reg = UNWIND_FP, .ra_slot = UNWIND_RA_IN_LR},
        {.cfa_offset = 0x7fffffff, .fp_offset = UNWIND_FP_UNKNOWN, .cfa_reg = UNWIND_END, .ra_slot = INT8_MAX},
    };
    return rows[which];
}

static void assert_row(const unwind_row *a, const unwind_row *b) {
    assert_int_equal(a->cfa_offset, b->cfa_offset);
    assert_int_equal(a->fp_offset, b->fp_offset);
    assert_int_equal(a->cfa_reg, b->cfa_reg);
    assert_int_equal(a->ra_slot, b->ra_slot);
}

static void hit_gives_the_row_stored(void **state) {
    (void)state;
    unwind_cache_clear();
    for (uint64_t k = 0; k < 3; k++) {
        unwind_row in = row_of(k), out;
        unwind_cache_put(PC + k, &sets[k], &in);
        assert_true(unwind_cache_get(PC + k, &sets[k], &out));
        assert_row(&out, &in);
    }
}

static void miss_for_another_pc_or_set(void **state) {
    (void)state;
    unwind_cache_clear();
    unwind_row in = row_of(1), out;
    assert_false(unwind_cache_get(PC, &sets[0], &out));   /* empty */
    assert_false(unwind_cache_get(0, NULL, &out));        /* an empty slot's zeros are not an entry */
    unwind_cache_put(PC, &sets[0], &in);
    assert_false(unwind_cache_get(PC, &sets[1], &out));   /* the same pc after a refresh */
    assert_false(unwind_cache_get(PC + 1, &sets[0], &out));
    /* The same pc in the new set replaces the old entry, which then misses. */
    unwind_row newer = row_of(2);
    unwind_cache_put(PC, &sets[1], &newer);
    assert_false(unwind_cache_get(PC, &sets[0], &out));
    assert_true(unwind_cache_get(PC, &sets[1], &out));
    assert_row(&out, &newer);
}

static void colliding_pc_evicts_the_older(void **state) {
    (void)state;
    unwind_cache_clear();
    uintptr_t other = PC + 1;
    while (unwind_cache_slot(other) != unwind_cache_slot(PC)) other++;
    unwind_row a = row_of(0), b = row_of(1), out;
    unwind_cache_put(PC, &sets[0], &a);
    unwind_cache_put(other, &sets[0], &b);
    assert_false(unwind_cache_get(PC, &sets[0], &out));
    assert_true(unwind_cache_get(other, &sets[0], &out));
    assert_row(&out, &b);
}

/* Writers storing three (set, row) pairs for one pc while readers look it up: every hit must be exactly the
 * row stored with the set asked for, never one stored with another set. */

static void *race_writer(void *arg) {
    uint64_t n = (uint64_t)(uintptr_t)arg;
    while (atomic_load(&racing)) {
        uint64_t which = race_pick(&n, 3);
        unwind_row r = row_of(which);
        unwind_cache_put(PC, &sets[which], &r);
    }
    return NULL;
}

static void *race_reader(void *arg) {
    uint64_t n = (uint64_t)(uintptr_t)arg;
    while (atomic_load(&racing)) {
        uint64_t which = race_pick(&n, 3);
        unwind_row out, want = row_of(which);
        if (!unwind_cache_get(PC, &sets[which], &out)) continue;
        atomic_fetch_add(&race_hits, 1);
        if (out.cfa_offset != want.cfa_offset || out.fp_offset != want.fp_offset || out.cfa_reg != want.cfa_reg)
            atomic_fetch_add(&race_bad, 1);
    }
    return NULL;
}

static void racing_writers_never_give_a_mixed_row(void **state) {
    (void)state;
    unwind_cache_clear();
    race_run(race_writer, race_reader, &racing, &race_hits, &race_bad);
}

/* native_map_row, cold and then cached, answers what native_map_unwind answers for every 4th byte of the
 * text around a libc function (rows, gaps), twice (the second time from the cache where it hit). */
static void native_map_row_agrees_with_the_tables(void **state) {
    (void)state;
    unwind_cache_clear();
    assert_true(native_map_refresh() > 0);
    uintptr_t from = ((uintptr_t)nanosleep & ~(uintptr_t)0xffff) - 0x10000;
    int rows = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (uintptr_t pc = from; pc < from + 0x40000; pc += 4) {
            const unwind_row *want = native_map_unwind(pc);
            unwind_row got;
            native_row_found found = native_map_row(pc, &got);
            if (!native_map_lookup(pc)) {
                assert_int_equal(found, NATIVE_NO_OBJECT);
            } else if (!want) {
                assert_int_equal(found, NATIVE_NO_ROW);
            } else {
                assert_int_equal(found, NATIVE_ROW);
                assert_row(&got, want);
                rows += pass;
            }
        }
    }
    assert_true(rows > 1000);
    /* The object's rows as before, whatever the cache held: an address in no object has no row. */
    unwind_row got;
    assert_int_equal(native_map_row(8, &got), NATIVE_NO_OBJECT);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hit_gives_the_row_stored),
        cmocka_unit_test(miss_for_another_pc_or_set),
        cmocka_unit_test(colliding_pc_evicts_the_older),
        cmocka_unit_test(racing_writers_never_give_a_mixed_row),
        cmocka_unit_test(native_map_row_agrees_with_the_tables),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
