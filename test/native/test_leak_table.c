/* leak_table: addresses added and removed against a model, removed entries reused, a crowded neighbourhood
 * refused and counted, threads adding and removing at once; and traces_subtract, which gives a freed
 * allocation back. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "leak_table_create.h"
#include "event_kind.h"
#include "traces.h"

#include <pthread.h>
#include <stdlib.h>

#define ENTRIES 4096

static void test_put_and_remove_against_model(void **state) {
    (void)state;
    leak_table *t = leak_table_create(ENTRIES);
    assert_non_null(t);
    enum { N = 1500 };
    static uint64_t model[N];   /* weight by index; 0: not in the table */
    srand(3);
    for (int round = 0; round < 20000; round++) {
        int i = rand() % N;
        uintptr_t address = 0x10000 + (uintptr_t)i * 16;
        uint64_t id;
        uint64_t w;
        if (model[i]) {
            assert_true(leak_table_remove(t, address, &id, &w));
            assert_int_equal(id, (uint32_t)i + 1);
            assert_int_equal(w, model[i]);
            model[i] = 0;
            assert_false(leak_table_remove(t, address, &id, &w));   /* freed once only */
        } else {
            uint64_t weight = 1 + (uint64_t)rand() % 100000;
            assert_true(leak_table_put(t, address, (uint32_t)i + 1, weight));
            model[i] = weight;
        }
    }
    uint64_t live = 0;
    for (int i = 0; i < N; i++) live += model[i] != 0;
    assert_int_equal(atomic_load(&t->tracked), live);
    assert_int_equal(atomic_load(&t->full), 0);
    leak_table_clear(t);
    uint64_t id;
    uint64_t w;
    for (int i = 0; i < N; i++) assert_false(leak_table_remove(t, 0x10000 + (uintptr_t)i * 16, &id, &w));
    assert_int_equal(atomic_load(&t->tracked), 0);
    leak_table_destroy(t);
}

/* More live allocations than entries: the surplus is refused and counted, never lost silently, and removed
 * entries make room again. */
static void test_full_refused_and_counted(void **state) {
    (void)state;
    leak_table *t = leak_table_create(64);
    assert_non_null(t);
    int stored = 0;
    bool in[200];
    for (int i = 0; i < 200; i++) stored += in[i] = leak_table_put(t, 0x1000 + (uintptr_t)i * 16, 1, 1);
    assert_true(stored <= 64 && stored >= 48);
    assert_int_equal(atomic_load(&t->full), 200 - stored);
    uint64_t id;
    uint64_t w;
    for (int i = 0; i < 200; i++) assert_int_equal(leak_table_remove(t, 0x1000 + (uintptr_t)i * 16, &id, &w), in[i]);
    for (int i = 0; i < 48; i++) assert_true(leak_table_put(t, 0x900000 + (uintptr_t)i * 16, 2, 2));
    leak_table_destroy(t);
}

typedef struct {
    leak_table *t;
    int thread;
} worker_arg;

static void *worker(void *p) {
    worker_arg *a = p;
    for (int round = 0; round < 200; round++) {
        for (int i = 0; i < 100; i++) {
            uintptr_t address = ((uintptr_t)a->thread << 24) + (uintptr_t)(i + 1) * 16;
            if (!leak_table_put(a->t, address, (uint32_t)a->thread, (uint64_t)i)) return (void *)1;
        }
        for (int i = 0; i < 100; i++) {
            uintptr_t address = ((uintptr_t)a->thread << 24) + (uintptr_t)(i + 1) * 16;
            uint64_t id;
            uint64_t w;
            if (!leak_table_remove(a->t, address, &id, &w) || id != (uint64_t)a->thread || w != (uint64_t)i)
                return (void *)1;
        }
    }
    return NULL;
}

static void test_threads_at_once(void **state) {
    (void)state;
    leak_table *t = leak_table_create(ENTRIES);
    pthread_t threads[4];
    worker_arg args[4];
    for (int i = 0; i < 4; i++) {
        args[i] = (worker_arg){t, i + 1};
        assert_int_equal(pthread_create(&threads[i], NULL, worker, &args[i]), 0);
    }
    for (int i = 0; i < 4; i++) {
        void *failed;
        pthread_join(threads[i], &failed);
        assert_null(failed);
    }
    assert_int_equal(atomic_load(&t->tracked), 0);
    leak_table_destroy(t);
}

static void count_visit(const trace_frame *frames, uint32_t depth, const trace_key *key, uint64_t samples,
                        uint64_t weight, void *arg) {
    (void)frames, (void)depth, (void)key;
    uint64_t *sum = arg;
    sum[0] += samples;
    sum[1] += weight;
}

/* Three allocations at one stack, two freed: one sample and its weight remain; all freed: the stack is gone. */
static void test_traces_subtract(void **state) {
    (void)state;
    trace_table *table = traces_create(64, 1024);
    trace_frame frames[2] = {{0x1234, 0, FRAME_NATIVE}, {0x5678, 0, FRAME_NATIVE}};
    uint32_t id = 0;
    for (int i = 0; i < 3; i++) assert_int_equal(traces_put_id(table, frames, 2, &(trace_key){0, EVENT_NATIVEMEM, 0}, 100 * (i + 1), &id), TRACES_STORED);
    assert_true(traces_subtract(table, id, 100));
    assert_true(traces_subtract(table, id, 300));
    uint64_t sum[2] = {0, 0};
    traces_for_each(table, count_visit, sum);
    assert_int_equal(sum[0], 1);
    assert_int_equal(sum[1], 200);
    assert_true(traces_subtract(table, id, 200));
    assert_false(traces_subtract(table, id, 1));   /* never below zero */
    assert_false(traces_subtract(table, 0, 1));
    sum[0] = sum[1] = 0;
    traces_for_each(table, count_visit, sum);
    assert_int_equal(sum[0], 0);
    traces_destroy(table);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_put_and_remove_against_model),
        cmocka_unit_test(test_full_refused_and_counted),
        cmocka_unit_test(test_threads_at_once),
        cmocka_unit_test(test_traces_subtract),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
