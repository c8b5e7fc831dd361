/* Unit tests of the lock-free call-trace storage: merging, keys, full-table and full-arena behaviour, and
 * concurrent inserts from several threads. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <pthread.h>
#include <string.h>

#include "event_kind.h"
#include "thread_state.h"
#include "trace_pack.h"
#include "traces.h"

typedef struct {
    size_t stacks;
    uint64_t samples, weight;
    uint64_t by_first_id[64];
} tally;

static void count(const trace_frame *frames, uint32_t depth, const trace_key *tid, uint64_t samples, uint64_t weight,
                  void *arg) {
    (void)tid;
    tally *t = arg;
    t->stacks++;
    t->samples += samples;
    t->weight += weight;
    if (depth && frames[0].id < 64) t->by_first_id[frames[0].id] += samples;
}

static void make_stack(trace_frame *f, uint32_t depth, uint64_t seed) {
    for (uint32_t i = 0; i < depth; i++) f[i] = (trace_frame){seed * 1000 + i, (int32_t)i, FRAME_JAVA};
    f[0].id = seed;
}

static void test_merge_and_keys(void **state) {
    (void)state;
    trace_table *t = traces_create(64, 1024);
    assert_non_null(t);
    trace_frame a[3], b[3];
    make_stack(a, 3, 1);
    make_stack(b, 3, 2);
    for (int i = 0; i < 5; i++) assert_int_equal(traces_put(t, a, 3, 0, 10), TRACES_STORED);
    assert_int_equal(traces_put(t, b, 3, 0, 7), TRACES_STORED);
    assert_int_equal(traces_put(t, a, 3, 99, 1), TRACES_STORED);   /* another thread: another key */
    b[2].bci = 77;                                                  /* same methods, other bci */
    assert_int_equal(traces_put(t, b, 3, 0, 1), TRACES_STORED);
    assert_int_equal(traces_put(t, a, 2, 0, 1), TRACES_STORED);    /* a prefix is another stack */
    tally c = {0};
    traces_for_each(t, count, &c);
    assert_int_equal(c.stacks, 5);
    assert_int_equal(c.samples, 9);
    assert_int_equal(c.weight, 50 + 7 + 1 + 1 + 1);
    assert_int_equal(traces_distinct(t), 5);
    traces_reset(t);
    memset(&c, 0, sizeof(c));
    traces_for_each(t, count, &c);
    assert_int_equal(c.stacks, 0);
    assert_int_equal(traces_put(t, a, 3, 0, 1), TRACES_STORED);
    traces_destroy(t);
}

/* Samples of different event kinds or thread states are different stacks, each readable back with its
 * key; traces_add counts one more sample of a stored stack by its id (the wall engine's idle threads). */
static void test_event_and_state_keys(void **state) {
    (void)state;
    trace_table *t = traces_create(64, 1024);
    trace_frame a[3];
    make_stack(a, 3, 1);
    uint32_t cpu = 0, wall_sleeping = 0, wall_running = 0, again = 0;
    assert_int_equal(traces_put_id(t, a, 3, &(trace_key){7, EVENT_CPU, 0}, 10, &cpu), TRACES_STORED);
    assert_int_equal(traces_put_id(t, a, 3, &(trace_key){7, EVENT_WALL, THREAD_STATE_SLEEPING}, 50, &wall_sleeping),
                     TRACES_STORED);
    assert_int_equal(traces_put_id(t, a, 3, &(trace_key){7, EVENT_WALL, THREAD_STATE_RUNNABLE}, 50, &wall_running),
                     TRACES_STORED);
    assert_int_equal(traces_put_id(t, a, 3, &(trace_key){7, EVENT_WALL, THREAD_STATE_SLEEPING}, 50, &again),
                     TRACES_STORED);
    assert_true(cpu != wall_sleeping && cpu != wall_running && wall_sleeping != wall_running);
    assert_int_equal(again, wall_sleeping);
    trace_key k;
    assert_true(traces_get_key(t, wall_sleeping, &k));
    assert_int_equal(k.tid, 7);
    assert_int_equal(k.event, EVENT_WALL);
    assert_int_equal(k.state, THREAD_STATE_SLEEPING);
    assert_int_equal(traces_add(t, wall_sleeping, 50), TRACES_STORED);
    assert_int_equal(traces_add(t, 0, 50), TRACES_TABLE_FULL);
    tally c = {0};
    traces_for_each(t, count, &c);
    assert_int_equal(c.stacks, 3);
    assert_int_equal(c.samples, 5);
    assert_int_equal(c.weight, 10 + 50 * 4);
    traces_destroy(t);
}

/* The id of a stored stack: the same for the same stack, its frames readable back by it. */
static void test_ids(void **state) {
    (void)state;
    trace_table *t = traces_create(64, 1024);
    trace_frame a[4], b[4];
    make_stack(a, 4, 1);
    make_stack(b, 4, 2);
    uint32_t ida = 0, ida2 = 0, idb = 0;
    assert_int_equal(traces_put_id(t, a, 4, &(trace_key){0, 0, 0}, 1, &ida), TRACES_STORED);
    assert_int_equal(traces_put_id(t, b, 4, &(trace_key){0, 0, 0}, 1, &idb), TRACES_STORED);
    assert_int_equal(traces_put_id(t, a, 4, &(trace_key){0, 0, 0}, 1, &ida2), TRACES_STORED);
    assert_true(ida > 0 && idb > 0 && ida != idb);
    assert_int_equal(ida, ida2);
    const trace_frame *frames;
    uint32_t depth = 0;
    traces_buffer buf = {0};
    assert_true(traces_get(t, idb, &buf, &frames, &depth));
    assert_int_equal(depth, 4);
    assert_memory_equal(frames, b, sizeof(b));
    assert_true(traces_get(t, ida, &buf, &frames, &depth));   /* the buffer is reused */
    assert_memory_equal(frames, a, sizeof(a));
    assert_false(traces_get(t, 0, &buf, &frames, &depth));
    assert_false(traces_get(t, 1000000, &buf, &frames, &depth));
    uint32_t unused = ida == 1 ? (idb == 2 ? 3 : 2) : 1;
    if (unused == idb) unused++;
    assert_false(traces_get(t, unused, &buf, &frames, &depth));   /* an empty slot */
    traces_buffer_free(&buf);
    traces_destroy(t);
}

static void test_table_full(void **state) {
    (void)state;
    trace_table *t = traces_create(16, 100000);   /* takes 12 distinct stacks (3/4 load) */
    trace_frame f[2];
    int stored = 0, full = 0;
    for (uint64_t s = 1; s <= 40; s++) {
        make_stack(f, 2, s);
        traces_result r = traces_put(t, f, 2, 0, 1);
        if (r == TRACES_STORED) stored++;
        else if (r == TRACES_TABLE_FULL) full++;
    }
    assert_int_equal(stored, 12);
    assert_int_equal(full, 28);
    /* Known stacks keep counting when the table is full. */
    make_stack(f, 2, 1);
    assert_int_equal(traces_put(t, f, 2, 0, 1), TRACES_STORED);
    traces_destroy(t);
}

static void test_frames_full(void **state) {
    (void)state;
    trace_table *t = traces_create(64, 10);
    trace_frame f[4];
    make_stack(f, 4, 1);
    assert_int_equal(traces_put(t, f, 4, 0, 1), TRACES_STORED);
    make_stack(f, 4, 2);
    assert_int_equal(traces_put(t, f, 4, 0, 1), TRACES_STORED);
    make_stack(f, 4, 3);
    assert_int_equal(traces_put(t, f, 4, 0, 1), TRACES_FRAMES_FULL);
    assert_int_equal(traces_put(t, f, 4, 0, 1), TRACES_FRAMES_FULL);  /* the failed slot keeps refusing */
    tally c = {0};
    traces_for_each(t, count, &c);
    assert_int_equal(c.stacks, 2);
    assert_int_equal(traces_orphaned_samples(t), 0);
    traces_destroy(t);
}

/* Frames of every shape the agent records, and the ones that do not pack in one word, read back exactly. */
static const trace_frame every_shape[] = {
    {0x7f3a5c012348ULL, 17, FRAME_JAVA_JIT},            /* a jmethodID: aligned, above 2^44 */
    {0x7f3a5c012350ULL, 0, FRAME_JAVA_INLINED},
    {0x7f3a5c012358ULL, 32763, FRAME_JAVA_INTERPRETED},  /* the largest bci that packs */
    {0x7f3a5c012360ULL, -3, FRAME_JAVA_C1},              /* a native method */
    {0x7f3a5c012368ULL, -4, FRAME_JAVA},
    {0x1234, 5, FRAME_JAVA},                             /* small ids pack unshifted (tests, synthetic ids) */
    {0x7f3a5c012349ULL, 1, FRAME_JAVA_JIT},              /* unaligned above 2^44: escaped */
    {0x7f3a5c012370ULL, 32764, FRAME_JAVA_JIT},          /* bci too large: escaped */
    {0x7f3a5c012378ULL, -5, FRAME_JAVA_JIT},             /* bci too small: escaped */
    {0x800000000000ULL, 0, FRAME_JAVA},                  /* 2^47: escaped */
    {0, -4, FRAME_JAVA},                                 /* would pack to 0: escaped */
    {0x7f3a5d4e1f2bULL, 0, FRAME_NATIVE},                /* a native pc */
    {0xffffffff81234567ULL, 0, FRAME_KERNEL},            /* a kernel address: negative */
    {MARKER_TRUNCATED, 0, FRAME_MARKER},
    {42, 0, FRAME_CLASS_ALLOC_OUTSIDE_TLAB},
    {0x7f3a5d4e1f2bULL, 3, FRAME_NATIVE},                /* a non-Java frame with a bci: escaped */
    {0x1000000000000000ULL, 0, FRAME_NATIVE},            /* beyond 60 bits: escaped */
    {7, 9, 99},                                          /* a kind the packing does not know: escaped */
};
#define SHAPES (sizeof(every_shape) / sizeof(every_shape[0]))
#define ESCAPED 8

static void test_packing_round_trip(void **state) {
    (void)state;
    uint64_t words[TRACE_PACK_MAX_WORDS] = {0};
    uint32_t total = 0;
    for (size_t i = 0; i < SHAPES; i++) {
        uint32_t n = trace_pack(&every_shape[i], words);
        assert_int_equal(n, trace_pack_words(&every_shape[i]));
        total += n;
        trace_frame back;
        assert_int_equal(trace_unpack(words, &back), n);
        assert_memory_equal(&back, &every_shape[i], sizeof(back));
    }
    assert_int_equal(total, SHAPES + ESCAPED * (TRACE_PACK_MAX_WORDS - 1));
}

/* A table stores a stack in one word per packable frame, and reads every shape back in order. */
static void test_packed_storage(void **state) {
    (void)state;
    trace_table *t = traces_create(64, 1024);
    uint32_t id = 0;
    assert_int_equal(traces_put_id(t, every_shape, SHAPES, &(trace_key){0, 0, 0}, 1, &id), TRACES_STORED);
    uint64_t reserved, used, used_before;
    traces_memory(t, &reserved, &used_before);
    trace_frame jit[48];
    for (uint32_t i = 0; i < 48; i++) jit[i] = (trace_frame){0x7f3a5c000000ULL + 8 * i, (int32_t)i, FRAME_JAVA_JIT};
    assert_int_equal(traces_put(t, jit, 48, 0, 1), TRACES_STORED);
    traces_memory(t, &reserved, &used);
    /* one slot more, and 48 words: the slot is what used_before holds besides the first stack's words */
    assert_int_equal(used - used_before, 48 * sizeof(uint64_t) + (used_before - (SHAPES + 2 * ESCAPED) * 8));
    const trace_frame *frames;
    uint32_t depth;
    traces_buffer buf = {0};
    assert_true(traces_get(t, id, &buf, &frames, &depth));
    assert_int_equal(depth, SHAPES);
    assert_memory_equal(frames, every_shape, sizeof(every_shape));
    traces_buffer_free(&buf);
    traces_destroy(t);
}

/* The arena counts words: escaped frames fill it sooner. */
static void test_escaped_frames_fill_the_arena(void **state) {
    (void)state;
    assert_null(traces_create(64, (size_t)UINT32_MAX + 1));   /* a slot keeps its frames' place in 32 bits */
    trace_table *t = traces_create(64, 10);
    trace_frame odd[3] = {{0x7f0000000001ULL, 0, FRAME_JAVA}, {0x7f0000000003ULL, 0, FRAME_JAVA},
                          {0x7f0000000005ULL, 0, FRAME_JAVA}};
    assert_int_equal(traces_put(t, odd, 3, 0, 1), TRACES_STORED);        /* 9 words of 10 */
    trace_frame one = {0x1000, 1, FRAME_JAVA};
    assert_int_equal(traces_put(t, &one, 1, 0, 1), TRACES_STORED);       /* the last word */
    assert_int_equal(traces_put(t, odd, 2, 0, 1), TRACES_FRAMES_FULL);   /* 6 more do not fit */
    tally c = {0};
    traces_for_each(t, count, &c);
    assert_int_equal(c.stacks, 2);
    traces_destroy(t);
}

#define THREADS 8
#define PER_THREAD 20000
#define DISTINCT 50

static trace_table *shared;

static void *inserter(void *arg) {
    uintptr_t id = (uintptr_t)arg;
    trace_frame f[8];
    for (int i = 0; i < PER_THREAD; i++) {
        make_stack(f, 8, 1 + (uint64_t)((i + (int)id) % DISTINCT));
        if (traces_put(shared, f, 8, 0, 3) != TRACES_STORED) return (void *)1;
    }
    return NULL;
}

static void test_concurrent_inserts(void **state) {
    (void)state;
    shared = traces_create(1024, 1 << 20);
    pthread_t threads[THREADS];
    for (uintptr_t i = 0; i < THREADS; i++) pthread_create(&threads[i], NULL, inserter, (void *)i);
    for (int i = 0; i < THREADS; i++) {
        void *rc;
        pthread_join(threads[i], &rc);
        assert_null(rc);
    }
    tally c = {0};
    traces_for_each(shared, count, &c);
    assert_int_equal(c.stacks, DISTINCT);
    assert_int_equal(c.samples, (uint64_t)THREADS * PER_THREAD);
    assert_int_equal(c.weight, (uint64_t)THREADS * PER_THREAD * 3);
    for (int s = 1; s <= DISTINCT; s++) assert_int_equal(c.by_first_id[s], (uint64_t)THREADS * PER_THREAD / DISTINCT);
    traces_destroy(shared);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_merge_and_keys),
        cmocka_unit_test(test_ids),
        cmocka_unit_test(test_event_and_state_keys),
        cmocka_unit_test(test_table_full),
        cmocka_unit_test(test_frames_full),
        cmocka_unit_test(test_packing_round_trip),
        cmocka_unit_test(test_packed_storage),
        cmocka_unit_test(test_escaped_frames_fill_the_arena),
        cmocka_unit_test(test_concurrent_inserts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
