/* Unit tests of the walker's per-walk memo of nmethods by code range (signal/nmethod_memo.h): a pc inside a
 * remembered range gives exactly that range's identity, a pc outside every range (either edge, between
 * ranges) misses, an empty range is never remembered, and once full the oldest range is the one replaced. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "signal/nmethod_memo.h"

#define BASE 0x7f0020000000ULL

/* Nmethod n: code [BASE + n * 0x1000, + 0x800), an identity whose every field derives from n. */
static pc_cache_identity identity(uint64_t n) {
    return (pc_cache_identity){BASE + n * 0x1000 - 0x100, 0x800000000ULL + n * 0x40, (int64_t)n + 1};
}

static void add(nmethod_memo *m, uint64_t n) {
    pc_cache_identity id = identity(n);
    nmethod_memo_add(m, BASE + n * 0x1000, BASE + n * 0x1000 + 0x800, &id);
}

static void assert_finds(const nmethod_memo *m, uintptr_t pc, uint64_t n) {
    pc_cache_identity got = {0, 0, 0}, want = identity(n);
    assert_true(nmethod_memo_find(m, pc, &got));
    assert_int_equal(got.blob, want.blob);
    assert_int_equal(got.method, want.method);
    assert_int_equal(got.compile_id, want.compile_id);
}

static void assert_misses(const nmethod_memo *m, uintptr_t pc) {
    pc_cache_identity got = {1, 2, 3};
    assert_false(nmethod_memo_find(m, pc, &got));
    assert_int_equal(got.blob, 1);   /* untouched on a miss */
}

static void test_ranges(void **state) {
    (void)state;
    nmethod_memo m = {.count = 0};
    assert_misses(&m, BASE);
    for (uint64_t n = 0; n < 5; n++) add(&m, n);
    for (uint64_t n = 0; n < 5; n++) {
        uintptr_t begin = BASE + n * 0x1000;
        assert_finds(&m, begin, n);
        assert_finds(&m, begin + 0x3ff, n);
        assert_finds(&m, begin + 0x7ff, n);
        assert_misses(&m, begin - 1);
        assert_misses(&m, begin + 0x800);   /* the end is not in the code */
    }
    assert_misses(&m, 0);
    assert_misses(&m, UINTPTR_MAX);
}

static void test_empty_range_ignored(void **state) {
    (void)state;
    nmethod_memo m = {.count = 0};
    pc_cache_identity id = identity(9);
    nmethod_memo_add(&m, BASE, BASE, &id);
    nmethod_memo_add(&m, BASE + 8, BASE, &id);
    assert_int_equal(m.count, 0);
    assert_misses(&m, BASE);
}

/* Full: each new range replaces the oldest one still there, and every other one stays found. */
static void test_replaces_oldest(void **state) {
    (void)state;
    nmethod_memo m = {.count = 0};
    for (uint64_t n = 0; n < NMETHOD_MEMO_SIZE; n++) add(&m, n);
    for (uint64_t n = 0; n < NMETHOD_MEMO_SIZE; n++) assert_finds(&m, BASE + n * 0x1000 + 4, n);
    for (uint64_t extra = 0; extra < 2 * NMETHOD_MEMO_SIZE + 3; extra++) {
        uint64_t n = NMETHOD_MEMO_SIZE + extra;
        add(&m, n);
        assert_int_equal(m.count, NMETHOD_MEMO_SIZE);
        for (uint64_t k = 0; k <= n; k++) {
            if (k + NMETHOD_MEMO_SIZE > n) assert_finds(&m, BASE + k * 0x1000 + 4, k);
            else assert_misses(&m, BASE + k * 0x1000 + 4);
        }
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ranges),
        cmocka_unit_test(test_empty_range_ignored),
        cmocka_unit_test(test_replaces_oldest),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
