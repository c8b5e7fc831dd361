/* Unit tests of the sample queue: order, capacity, wrap-around, and four producers against one consumer. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <pthread.h>
#include <stdlib.h>

#include "sample_ring.h"
#include "sample_ring_create.h"

static void test_order_and_capacity(void **state) {
    (void)state;
    sample_ring *r = sample_ring_create(20);   /* rounded up to 32 */
    assert_non_null(r);
    for (uint32_t i = 0; i < 32; i++) assert_true(sample_ring_push(r, &(sample_record){i * 10ULL, 7, i + 1, 0, 0, 0, 0, 0}));
    assert_false(sample_ring_push(r, &(sample_record){0, 7, 99, 0, 0, 0, 0, 0}));   /* full */
    sample_record out[64];
    assert_int_equal(sample_ring_drain(r, out, 10), 10);
    for (uint32_t i = 0; i < 10; i++) {
        assert_int_equal(out[i].trace_id, i + 1);
        assert_int_equal(out[i].ticks, i * 10ULL);
        assert_int_equal(out[i].tid, 7);
    }
    assert_true(sample_ring_push(r, &(sample_record){0, 8, 100, 0, 0, 0, 0, 0}));   /* room again */
    assert_int_equal(sample_ring_drain(r, out, 64), 23);
    assert_int_equal(out[21].trace_id, 32);
    assert_int_equal(out[22].trace_id, 100);
    assert_int_equal(sample_ring_drain(r, out, 64), 0);
    /* Many laps around the ring. */
    for (uint32_t lap = 0; lap < 1000; lap++) {
        for (uint32_t i = 0; i < 5; i++) assert_true(sample_ring_push(r, &(sample_record){lap, i, lap * 5 + i, 0, 0, 0, 0, 0}));
        assert_int_equal(sample_ring_drain(r, out, 64), 5);
        for (uint32_t i = 0; i < 5; i++) assert_int_equal(out[i].trace_id, lap * 5 + i);
    }
    sample_ring_destroy(r);
}

#define PRODUCERS 4
#define PER_PRODUCER 50000

typedef struct {
    sample_ring *ring;
    uint32_t id;
    uint64_t full;   /* pushes refused because the ring was full (retried) */
} producer;

static void *produce(void *arg) {
    producer *p = arg;
    for (uint32_t i = 1; i <= PER_PRODUCER; i++) {
        while (!sample_ring_push(p->ring, &(sample_record){i, p->id, i, 0, 0, 0, 0, 0})) p->full++;
    }
    return NULL;
}

static void test_concurrent_producers(void **state) {
    (void)state;
    sample_ring *r = sample_ring_create(4096);
    pthread_t threads[PRODUCERS];
    producer producers[PRODUCERS];
    for (uint32_t i = 0; i < PRODUCERS; i++) {
        producers[i] = (producer){r, i, 0};
        pthread_create(&threads[i], NULL, produce, &producers[i]);
    }
    uint32_t last[PRODUCERS] = {0};
    uint64_t total = 0;
    sample_record out[256];
    while (total < (uint64_t)PRODUCERS * PER_PRODUCER) {
        size_t n = sample_ring_drain(r, out, 256);
        for (size_t i = 0; i < n; i++) {
            assert_true(out[i].tid < PRODUCERS);
            /* each producer's records arrive once, in its order */
            assert_int_equal(out[i].trace_id, last[out[i].tid] + 1);
            assert_int_equal(out[i].ticks, out[i].trace_id);
            last[out[i].tid] = out[i].trace_id;
        }
        total += n;
    }
    for (uint32_t i = 0; i < PRODUCERS; i++) {
        pthread_join(threads[i], NULL);
        assert_int_equal(last[i], PER_PRODUCER);
    }
    assert_int_equal(sample_ring_drain(r, out, 256), 0);
    sample_ring_destroy(r);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_order_and_capacity),
        cmocka_unit_test(test_concurrent_producers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
