/* Unit tests of the perf ring-buffer reader on synthetic rings: the newest sample wins, markers are
 * skipped, user frames end the kernel chain, records wrapping around the end of the data area read
 * whole, and malformed rings are refused instead of read past their records; a period that ended between
 * two positions is told from records that raise no signal. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <linux/perf_event.h>
#include <string.h>

#include "perf_ring.h"

#define RING 256

typedef struct {
    uint8_t data[RING];
    uint64_t head;   /* running write position */
} ring;

static void put_bytes(ring *r, const void *src, size_t len) {
    for (size_t i = 0; i < len; i++) r->data[(r->head + i) % RING] = ((const uint8_t *)src)[i];
    r->head += len;
}

/* A PERF_RECORD_SAMPLE carrying only PERF_SAMPLE_CALLCHAIN. */
static void put_sample(ring *r, const uint64_t *ips, uint64_t nr) {
    struct perf_event_header h = {PERF_RECORD_SAMPLE, 0, (uint16_t)(sizeof(h) + 8 + nr * 8)};
    put_bytes(r, &h, sizeof(h));
    put_bytes(r, &nr, 8);
    put_bytes(r, ips, nr * 8);
}

static void put_other(ring *r, uint32_t type, uint16_t payload) {
    struct perf_event_header h = {type, 0, (uint16_t)(sizeof(h) + payload)};
    put_bytes(r, &h, sizeof(h));
    uint8_t zero[64] = {0};
    put_bytes(r, zero, payload);
}

static const uint64_t K = (uint64_t)PERF_CONTEXT_KERNEL, U = (uint64_t)PERF_CONTEXT_USER;

static void test_one_sample(void **state) {
    (void)state;
    ring r = {{0}, 0};
    uint64_t ips[] = {K, 0xffffffff81000010, 0xffffffff81000020, 0xffffffff81000030};
    put_sample(&r, ips, 4);
    uintptr_t out[8];
    assert_int_equal(perf_ring_newest_kernel_frames(r.data, RING, 0, r.head, out, 8), 3);
    assert_int_equal(out[0], 0xffffffff81000010);
    assert_int_equal(out[2], 0xffffffff81000030);
}

static void test_newest_sample_wins(void **state) {
    (void)state;
    ring r = {{0}, 0};
    uint64_t old[] = {K, 0x1111}, newer[] = {K, 0x2222, 0x3333};
    put_sample(&r, old, 2);
    put_other(&r, PERF_RECORD_LOST, 16);
    put_sample(&r, newer, 3);
    put_other(&r, PERF_RECORD_THROTTLE, 24);
    uintptr_t out[8];
    assert_int_equal(perf_ring_newest_kernel_frames(r.data, RING, 0, r.head, out, 8), 2);
    assert_int_equal(out[0], 0x2222);
    assert_int_equal(out[1], 0x3333);
}

static void test_user_context_ends_chain_and_max(void **state) {
    (void)state;
    ring r = {{0}, 0};
    uint64_t ips[] = {K, 0xa, 0xb, 0xc, U, 0x400000, 0x400100};
    put_sample(&r, ips, 7);
    uintptr_t out[8];
    assert_int_equal(perf_ring_newest_kernel_frames(r.data, RING, 0, r.head, out, 8), 3);
    assert_int_equal(out[2], 0xc);
    assert_int_equal(perf_ring_newest_kernel_frames(r.data, RING, 0, r.head, out, 2), 2);
    /* A sample taken in user mode has no kernel chain: zero frames, not a failure. */
    ring empty = {{0}, 0};
    put_sample(&empty, ips, 0);
    assert_int_equal(perf_ring_newest_kernel_frames(empty.data, RING, 0, empty.head, out, 8), 0);
}

/* Records that straddle the end of the data area, at every offset of the header and the chain. */
static void test_wrap_around(void **state) {
    (void)state;
    for (uint64_t start = RING - 64; start < RING; start += 8) {
        ring r = {{0}, start};
        uint64_t ips[] = {K, 0x10, 0x20, 0x30, 0x40, 0x50};
        put_sample(&r, ips, 6);
        uintptr_t out[8];
        assert_int_equal(perf_ring_newest_kernel_frames(r.data, RING, start, r.head, out, 8), 5);
        for (int i = 0; i < 5; i++) assert_int_equal(out[i], 0x10 * (uint64_t)(i + 1));
    }
    /* Positions keep counting past the size: only their low bits address the data. */
    ring r = {{0}, 10 * RING + 200};
    uint64_t ips[] = {K, 0x77, 0x88};
    put_sample(&r, ips, 3);
    uintptr_t out[4];
    assert_int_equal(perf_ring_newest_kernel_frames(r.data, RING, 10 * RING + 200, r.head, out, 4), 2);
    assert_int_equal(out[1], 0x88);
}

static void test_malformed(void **state) {
    (void)state;
    uintptr_t out[8];
    ring r = {{0}, 0};
    put_other(&r, PERF_RECORD_LOST, 16);
    assert_int_equal(perf_ring_newest_kernel_frames(r.data, RING, 0, r.head, out, 8), -1);   /* no sample */
    assert_int_equal(perf_ring_newest_kernel_frames(r.data, RING, 0, 0, out, 8), -1);        /* empty */
    assert_int_equal(perf_ring_newest_kernel_frames(r.data, RING, 8, 0, out, 8), -1);        /* head < tail */
    assert_int_equal(perf_ring_newest_kernel_frames(r.data, 100, 0, r.head, out, 8), -1);    /* size not 2^n */
    ring zero = {{0}, 64};   /* a zero-size header would loop forever */
    assert_int_equal(perf_ring_newest_kernel_frames(zero.data, RING, 0, zero.head, out, 8), -1);
    ring big = {{0}, 0};
    uint64_t ips[] = {K, 1, 2};
    put_sample(&big, ips, 3);
    uint64_t lie = 1000;   /* nr larger than the record */
    memcpy(big.data + 8, &lie, 8);
    assert_int_equal(perf_ring_newest_kernel_frames(big.data, RING, 0, big.head, out, 8), -1);
    ring cut = {{0}, 0};
    put_sample(&cut, ips, 3);   /* head inside the record: a record the kernel has not finished */
    assert_int_equal(perf_ring_newest_kernel_frames(cut.data, RING, 0, cut.head - 8, out, 8), -1);
}

static void test_period_ended(void **state) {
    (void)state;
    uint64_t ips[] = {K, 0x10, 0x20};
    for (uint64_t start = 0; start < 2 * RING; start += 24) {   /* records wrapping around the end too */
        ring r = {{0}, start};
        assert_false(perf_ring_period_ended(r.data, RING, start, r.head));   /* nothing written */
        put_other(&r, PERF_RECORD_UNTHROTTLE, 16);                          /* no signal raised */
        assert_false(perf_ring_period_ended(r.data, RING, start, r.head));
        uint64_t before = r.head;
        put_sample(&r, ips, 3);
        assert_true(perf_ring_period_ended(r.data, RING, start, r.head));
        assert_true(perf_ring_period_ended(r.data, RING, before, r.head));
        ring lost = {{0}, start};
        put_other(&lost, PERF_RECORD_LOST, 16);   /* samples the ring had no room for: periods all the same */
        assert_true(perf_ring_period_ended(lost.data, RING, start, lost.head));
    }
    ring zero = {{0}, 64};   /* a zero-size header: malformed, taken as a period ended */
    assert_true(perf_ring_period_ended(zero.data, RING, 0, zero.head));
    ring r = {{0}, 0};
    put_other(&r, PERF_RECORD_THROTTLE, 16);
    assert_true(perf_ring_period_ended(r.data, 100, 0, r.head));            /* size not 2^n */
    assert_true(perf_ring_period_ended(r.data, RING, 0, RING + 8));         /* more than the ring */
    assert_true(perf_ring_period_ended(r.data, RING, 0, r.head - 8));       /* a record cut short */
    assert_false(perf_ring_period_ended(r.data, RING, 8, 0));               /* nothing between */
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_sample),  cmocka_unit_test(test_newest_sample_wins),
        cmocka_unit_test(test_user_context_ends_chain_and_max), cmocka_unit_test(test_wrap_around),
        cmocka_unit_test(test_malformed), cmocka_unit_test(test_period_ended),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
