/* u64map: puts, gets and removals against a plain array model, with keys chosen to collide. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "u64map.h"

#include <stdlib.h>

#define KEYS 5000

static void check_all(const u64map *m, const uint64_t *model) {
    size_t present = 0;
    for (uint64_t k = 1; k <= KEYS; k++) {
        uint64_t v = 0;
        bool found = u64map_get(m, k * 4096, &v);   /* multiples of 4096: many share a home slot */
        assert_int_equal(found, model[k] != 0);
        if (found) {
            assert_int_equal(v, model[k]);
            present++;
        }
    }
    assert_int_equal(m->count, present);
}

static void test_remove_keeps_every_other_key(void **state) {
    (void)state;
    u64map m;
    u64map_init(&m);
    uint64_t *model = calloc(KEYS + 1, sizeof(uint64_t));
    srand(7);
    for (int round = 0; round < 20; round++) {
        for (int i = 0; i < 2000; i++) {
            uint64_t k = 1 + (uint64_t)rand() % KEYS, v = 1 + (uint64_t)rand();
            if (rand() % 3) {
                assert_int_equal(u64map_put(&m, k * 4096, v), 0);
                model[k] = v;
            } else {
                uint64_t old = 0;
                assert_int_equal(u64map_remove(&m, k * 4096, &old), model[k] != 0);
                if (model[k]) assert_int_equal(old, model[k]);
                model[k] = 0;
            }
        }
        check_all(&m, model);
    }
    for (uint64_t k = 1; k <= KEYS; k++) {
        if (model[k]) assert_true(u64map_remove(&m, k * 4096, NULL));
    }
    assert_int_equal(m.count, 0);
    assert_false(u64map_remove(&m, 4096, NULL));
    u64map_free(&m);
    assert_false(u64map_remove(&m, 4096, NULL));   /* an empty map */
    free(model);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_remove_keeps_every_other_key),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
