/* Unit tests of frame_bound_stack: jstackdepth=N[/M] bounds the whole recorded stack, keeping the
 * leaf end; with /M the cut is marked at the root end with [truncated]. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "frame.h"

#define DEEP 40

/* Leaf first: 'kernel' kernel frames, 'native' native frames, then 'java' Java frames (ids count up). */
static uint32_t mixed_stack(trace_frame *out, uint32_t kernel, uint32_t native, uint32_t java) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < kernel; i++, n++) out[n] = (trace_frame){0xffffffff81000000ULL + n, 0, FRAME_KERNEL};
    for (uint32_t i = 0; i < native; i++, n++) out[n] = (trace_frame){0x400000 + n, 0, FRAME_NATIVE};
    for (uint32_t i = 0; i < java; i++, n++) out[n] = (trace_frame){0x1000 + n, (int32_t)n, FRAME_JAVA};
    return n;
}

static void assert_truncated_at(const trace_frame *f, uint32_t at) {
    assert_int_equal(f[at].kind, FRAME_MARKER);
    assert_int_equal(f[at].id, MARKER_TRUNCATED);
}

static void test_shallow_stack_untouched(void **state) {
    (void)state;
    trace_frame f[DEEP + 1];
    uint32_t n = mixed_stack(f, 2, 3, 14);
    assert_int_equal(frame_bound_stack(f, n, 20, 0), 19);
    assert_int_equal(frame_bound_stack(f, n, 20, 10), 19);
    assert_int_equal(f[18].kind, FRAME_JAVA);
    assert_int_equal(f[18].id, 0x1000 + 18);
}

/* Native root frames below 20 Java frames count toward the bound: 20 frames are kept, unmarked, as
 * async-profiler keeps them with jstackdepth=20. */
static void test_native_frames_count_toward_the_bound(void **state) {
    (void)state;
    trace_frame f[DEEP + 1];
    uint32_t n = mixed_stack(f, 3, 7, 20);
    assert_int_equal(frame_bound_stack(f, n, 20, 0), 20);
    /* The leaf end survives: kernel and native leaf frames, then the first Java frames. */
    assert_int_equal(f[0].kind, FRAME_KERNEL);
    assert_int_equal(f[0].id, 0xffffffff81000000ULL);
    assert_int_equal(f[3].kind, FRAME_NATIVE);
    assert_int_equal(f[19].kind, FRAME_JAVA);
    assert_int_equal(f[19].id, 0x1000 + 19);
}

/* jstackdepth=20/5: a stack of 20 frames or more keeps 5 under one [truncated] root. */
static void test_cut_marks_the_root(void **state) {
    (void)state;
    trace_frame f[DEEP + 1];
    uint32_t n = mixed_stack(f, 0, 4, 16);
    assert_int_equal(frame_bound_stack(f, n, 20, 5), 6);
    assert_int_equal(f[4].kind, FRAME_JAVA);
    assert_truncated_at(f, 5);
    n = mixed_stack(f, 0, 4, 15);
    assert_int_equal(frame_bound_stack(f, n, 20, 5), 19);
}

/* A stack already cut by the Java walker (Java frames + [truncated]) keeps no marker within the bound, one
 * marker at the root end with a cut. */
static void test_existing_marker(void **state) {
    (void)state;
    trace_frame f[DEEP + 1];
    uint32_t n = mixed_stack(f, 0, 4, 20);
    f[n++] = (trace_frame){MARKER_TRUNCATED, 0, FRAME_MARKER};
    assert_int_equal(frame_bound_stack(f, n, 20, 0), 20);
    for (uint32_t i = 0; i < 20; i++) assert_int_not_equal(f[i].kind, FRAME_MARKER);
    n = mixed_stack(f, 0, 2, 3);
    f[n++] = (trace_frame){MARKER_TRUNCATED, 0, FRAME_MARKER};
    assert_int_equal(frame_bound_stack(f, n, 20, 0), 5);
    assert_int_equal(f[4].kind, FRAME_JAVA);
    f[n - 1] = (trace_frame){MARKER_TRUNCATED, 0, FRAME_MARKER};
    assert_int_equal(frame_bound_stack(f, n, 20, 10), 6);
    assert_truncated_at(f, 5);
}

static void test_depth_one(void **state) {
    (void)state;
    trace_frame f[DEEP + 1];
    uint32_t n = mixed_stack(f, 0, 10, 10);
    assert_int_equal(frame_bound_stack(f, n, 1, 0), 1);
    assert_int_equal(f[0].kind, FRAME_NATIVE);
    assert_int_equal(f[0].id, 0x400000);
    n = mixed_stack(f, 0, 10, 10);
    assert_int_equal(frame_bound_stack(f, n, 2, 1), 2);
    assert_truncated_at(f, 1);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shallow_stack_untouched),
        cmocka_unit_test(test_native_frames_count_toward_the_bound),
        cmocka_unit_test(test_cut_marks_the_root),
        cmocka_unit_test(test_existing_marker),
        cmocka_unit_test(test_depth_one),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
