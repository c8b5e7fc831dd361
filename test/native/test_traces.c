/* Unit tests of the lock-free call-trace storage: merging, keys, full-table and full-arena behaviour, ids
 * in creation order, many stacks through both index regions, stacks whose index words collide, and
 * concurrent inserts from several threads. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "event_kind.h"
#include "thread_state.h"
#include "trace_pack.h"
#include "traces.h"
#include "traces_table.h"

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
    assert_int_equal(ida, 1);   /* ids in the order the stacks arrived */
    assert_int_equal(idb, 2);
    assert_false(traces_get(t, 3, &buf, &frames, &depth));   /* no stack yet */
    assert_int_equal(traces_add(t, 3, 1), TRACES_TABLE_FULL);
    assert_false(traces_subtract(t, 3, 1));
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
    assert_int_equal(traces_distinct(t), 12);
    assert_int_equal(traces_fill_percent(t), 100);
    /* Known stacks keep counting when the table is full, under the ids they had. */
    for (uint64_t s = 1; s <= 12; s++) {
        make_stack(f, 2, s);
        uint32_t id = 0;
        assert_int_equal(traces_put_id(t, f, 2, &(trace_key){0, 0, 0}, 1, &id), TRACES_STORED);
        assert_int_equal(id, s);
    }
    /* A reset table takes new stacks again, from id 1. */
    traces_reset(t);
    assert_int_equal(traces_distinct(t), 0);
    assert_int_equal(traces_fill_percent(t), 0);
    make_stack(f, 2, 30);
    uint32_t id = 0;
    assert_int_equal(traces_put_id(t, f, 2, &(trace_key){0, 0, 0}, 1, &id), TRACES_STORED);
    assert_int_equal(id, 1);
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

/* A stack of 1..40 frames made from 'seed' (frame ids unique to it), under a key also made from it. */
static uint32_t make_varied_stack(trace_frame *f, uint64_t seed, trace_key *key) {
    uint32_t depth = 1 + (uint32_t)(seed % 40);
    for (uint32_t i = 0; i < depth; i++)
        f[i] = (trace_frame){0x7f0000000000ULL + seed * 512 + 8 * i, (int32_t)(seed + i) % 3000,
                             i % 2 ? FRAME_JAVA_JIT : FRAME_JAVA_INLINED};
    *key = (trace_key){(uint32_t)(seed % 5), (uint8_t)(seed % 3), (uint8_t)(seed % 4)};
    return depth;
}

typedef struct {
    uint32_t visited, out_of_order;
    uint64_t samples;
} many_tally;

/* Stacks are visited in creation order: the seed of the n-th is n (see test_many_stacks). */
static void check_order(const trace_frame *frames, uint32_t depth, const trace_key *key, uint64_t samples,
                        uint64_t weight, void *arg) {
    (void)depth, (void)key, (void)weight;
    many_tally *m = arg;
    m->visited++;
    if ((frames[0].id - 0x7f0000000000ULL) / 512 != m->visited) m->out_of_order++;
    m->samples += samples;
}

/* More stacks than the index's near region holds (8K): every one reads back exactly, under the id it got
 * (ids 1..N in creation order), and is found again, by the cache or either index region. */
static void test_many_stacks(void **state) {
    (void)state;
    enum { N = 20000 };
    trace_table *t = traces_create(32 * 1024, 1 << 20);
    trace_frame f[40];
    trace_key key;
    for (uint64_t s = 1; s <= N; s++) {
        uint32_t depth = make_varied_stack(f, s, &key), id = 0;
        assert_int_equal(traces_put_id(t, f, depth, &key, s, &id), TRACES_STORED);
        assert_int_equal(id, s);
    }
    assert_int_equal(traces_distinct(t), N);
    for (uint64_t s = N; s >= 1; s--) {   /* again, the other way round: ids are stable */
        uint32_t depth = make_varied_stack(f, s, &key), id = 0;
        assert_int_equal(traces_put_id(t, f, depth, &key, 1, &id), TRACES_STORED);
        assert_int_equal(id, s);
    }
    assert_int_equal(traces_distinct(t), N);
    traces_buffer buf = {0};
    for (uint64_t s = 1; s <= N; s++) {
        uint32_t depth = make_varied_stack(f, s, &key), got_depth = 0;
        const trace_frame *frames;
        assert_true(traces_get(t, (uint32_t)s, &buf, &frames, &got_depth));
        assert_int_equal(got_depth, depth);
        assert_memory_equal(frames, f, depth * sizeof(trace_frame));
        trace_key got;
        assert_true(traces_get_key(t, (uint32_t)s, &got));
        assert_true(got.tid == key.tid && got.event == key.event && got.state == key.state);
    }
    traces_buffer_free(&buf);
    many_tally m = {0};
    assert_int_equal(traces_for_each(t, check_order, &m), 0);
    assert_int_equal(m.visited, N);
    assert_int_equal(m.out_of_order, 0);
    assert_int_equal(m.samples, 2 * N);
    traces_reset(t);
    memset(&m, 0, sizeof(m));
    traces_for_each(t, check_order, &m);
    assert_int_equal(m.visited, 0);
    const trace_frame *frames;
    uint32_t depth;
    assert_false(traces_get(t, 1, &buf, &frames, &depth));
    traces_destroy(t);
}

static int by_value(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The store tells stacks apart by their 64-bit hash alone, so every small change to a stack must change it:
 * one frame's id, bci or kind, two frames swapped (neighbours, which the hash's even and odd chains hold, and
 * two apart, which the same chain holds), a shorter stack, another key. */
static void test_hash_tells_near_stacks_apart(void **state) {
    (void)state;
    enum { DEPTH = 65, MAX_HASHES = 8 * DEPTH };
    trace_frame base[DEPTH], f[DEPTH];
    for (uint32_t i = 0; i < DEPTH; i++) base[i] = (trace_frame){0x7f0000100000ULL + i * 0x28, (int32_t)(i * 7), FRAME_JAVA_JIT};
    trace_key key = {42, 1, 0};
    uint64_t *h = malloc(MAX_HASHES * sizeof(*h));
    assert_non_null(h);
    size_t n = 0;
    h[n++] = traces_stack_hash(base, DEPTH, &key);
    for (uint32_t i = 0; i < DEPTH; i++) {
        for (int change = 0; change < 5; change++) {
            memcpy(f, base, sizeof(f));
            if (change == 0) f[i].id++;
            if (change == 1) f[i].bci++;
            if (change == 2) f[i].kind = FRAME_JAVA_INLINED;
            if (change >= 3) {
                uint32_t j = i + (uint32_t)change - 2;   /* the next frame, or the one after */
                if (j >= DEPTH) continue;
                f[i] = base[j];
                f[j] = base[i];
            }
            h[n++] = traces_stack_hash(f, DEPTH, &key);
        }
        if (i > 0) h[n++] = traces_stack_hash(base, i, &key);
    }
    trace_key other[3] = {{43, 1, 0}, {42, 2, 0}, {42, 1, 1}};
    for (int k = 0; k < 3; k++) h[n++] = traces_stack_hash(base, DEPTH, &other[k]);
    assert_true(n <= MAX_HASHES);
    qsort(h, n, sizeof(*h), by_value);
    for (size_t i = 1; i < n; i++) assert_true(h[i] != h[i - 1]);
    free(h);
}

typedef struct {
    uint64_t word;   /* the hash's 32 tag bits, then its 4 low bits (a position in 16 words) */
    uint64_t hash, frame_id;
} hashed_stack;

static int by_word(const void *a, const void *b) {
    uint64_t x = ((const hashed_stack *)a)->word, y = ((const hashed_stack *)b)->word;
    return x < y ? -1 : x > y;
}

/* Two one-frame stacks whose index words are the same and whose cache and index positions in a table of
 * 16 words are too: only their records' full hashes tell them apart. Found by search (birthday on 36 bits). */
static void colliding_pair(trace_frame *a, trace_frame *b) {
    enum { CANDIDATES = 1 << 20 };
    hashed_stack *c = malloc(CANDIDATES * sizeof(*c));
    assert_non_null(c);
    trace_key key = {0, 0, 0};
    for (uint64_t i = 0; i < CANDIDATES; i++) {
        trace_frame f = {0x1000 + i, 0, FRAME_JAVA};
        uint64_t h = traces_stack_hash(&f, 1, &key);
        c[i] = (hashed_stack){(h >> 32) << 4 | (h & 15), h, f.id};
    }
    qsort(c, CANDIDATES, sizeof(*c), by_word);
    size_t i = 1;
    while (i < CANDIDATES && !(c[i].word == c[i - 1].word && c[i].hash != c[i - 1].hash)) i++;
    assert_true(i < CANDIDATES);
    *a = (trace_frame){c[i - 1].frame_id, 0, FRAME_JAVA};
    *b = (trace_frame){c[i].frame_id, 0, FRAME_JAVA};
    free(c);
}

static void test_index_word_collision(void **state) {
    (void)state;
    trace_frame a, b;
    colliding_pair(&a, &b);
    trace_key key = {0, 0, 0};
    uint64_t ha = traces_stack_hash(&a, 1, &key), hb = traces_stack_hash(&b, 1, &key);
    assert_true(ha != hb);
    assert_int_equal(traces_index_word(ha, 1), traces_index_word(hb, 1));
    trace_table *t = traces_create(16, 1024);   /* 16 words of cache, near and far region */
    assert_int_equal(ha & t->near_mask, hb & t->near_mask);
    assert_int_equal(ha & t->cache_mask, hb & t->cache_mask);
    uint32_t ida = 0, idb = 0, id = 0;
    assert_int_equal(traces_put_id(t, &a, 1, &key, 1, &ida), TRACES_STORED);
    assert_int_equal(traces_put_id(t, &b, 1, &key, 10, &idb), TRACES_STORED);   /* not a's */
    assert_true(ida != idb);
    /* Each put finds its own stack whatever the shared cache word names last. */
    for (int round = 0; round < 3; round++) {
        assert_int_equal(traces_put_id(t, &a, 1, &key, 1, &id), TRACES_STORED);
        assert_int_equal(id, ida);
        assert_int_equal(traces_put_id(t, &a, 1, &key, 1, &id), TRACES_STORED);
        assert_int_equal(id, ida);
        assert_int_equal(traces_put_id(t, &b, 1, &key, 10, &id), TRACES_STORED);
        assert_int_equal(id, idb);
    }
    const trace_frame *frames;
    uint32_t depth;
    traces_buffer buf = {0};
    assert_true(traces_get(t, idb, &buf, &frames, &depth));
    assert_int_equal(depth, 1);
    assert_memory_equal(frames, &b, sizeof(b));
    traces_buffer_free(&buf);
    tally c = {0};
    traces_for_each(t, count, &c);
    assert_int_equal(c.stacks, 2);
    assert_int_equal(c.samples, 7 + 4);
    assert_int_equal(c.weight, 7 + 40);
    assert_int_equal(traces_distinct(t), 2);
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

/* Threads that meet the same new stacks at the same time: every thread puts every stack (in the same order,
 * so they race to create each one) three times. Exact counts per stack, one id per stack whatever thread
 * asked, no stack twice; the records lost to races (a thread that took a record, then saw another thread
 * publish the same stack first) are never visited. More stacks than the near region holds. */
#define RACE_THREADS 4
#define RACE_STACKS 10000
#define RACE_PASSES 3

static uint32_t race_ids[RACE_THREADS][RACE_STACKS + 1];
static _Atomic int race_start;

static void *racer(void *arg) {
    uintptr_t me = (uintptr_t)arg;
    trace_frame f[40];
    trace_key key;
    atomic_fetch_add(&race_start, 1);
    while (atomic_load(&race_start) < RACE_THREADS) sched_yield();
    for (int pass = 0; pass < RACE_PASSES; pass++) {
        for (uint64_t s = 1; s <= RACE_STACKS; s++) {
            uint32_t depth = make_varied_stack(f, s, &key), id = 0;
            if (traces_put_id(shared, f, depth, &key, s, &id) != TRACES_STORED) return (void *)1;
            if (pass && race_ids[me][s] != id) return (void *)2;
            race_ids[me][s] = id;
        }
    }
    return NULL;
}

typedef struct {
    uint64_t samples[RACE_STACKS + 1], weight[RACE_STACKS + 1];
    uint32_t stacks;
} race_tally;

static void count_race(const trace_frame *frames, uint32_t depth, const trace_key *key, uint64_t samples,
                       uint64_t weight, void *arg) {
    (void)depth, (void)key;
    race_tally *r = arg;
    uint64_t seed = (frames[0].id - 0x7f0000000000ULL) / 512;
    r->stacks++;
    if (seed >= 1 && seed <= RACE_STACKS) {
        r->samples[seed] += samples;
        r->weight[seed] += weight;
    }
}

static void test_concurrent_new_stacks(void **state) {
    (void)state;
    /* Room for the worst case, every thread's record lost to a race for every stack. */
    shared = traces_create(64 * 1024, 1 << 20);
    assert_true(RACE_THREADS * RACE_STACKS <= 64 * 1024 / 4 * 3);
    static race_tally r;
    uint64_t abandoned = 0;
    for (int round = 0; round < 4; round++) {
        traces_reset(shared);
        atomic_store(&race_start, 0);
        pthread_t threads[RACE_THREADS];
        for (uintptr_t i = 0; i < RACE_THREADS; i++) pthread_create(&threads[i], NULL, racer, (void *)i);
        for (int i = 0; i < RACE_THREADS; i++) {
            void *rc;
            pthread_join(threads[i], &rc);
            assert_null(rc);
        }
        memset(&r, 0, sizeof(r));
        traces_for_each(shared, count_race, &r);
        assert_int_equal(r.stacks, RACE_STACKS);
        assert_int_equal(traces_distinct(shared), RACE_STACKS);
        for (uint64_t s = 1; s <= RACE_STACKS; s++) {
            assert_int_equal(r.samples[s], RACE_THREADS * RACE_PASSES);
            assert_int_equal(r.weight[s], RACE_THREADS * RACE_PASSES * s);
            for (int i = 1; i < RACE_THREADS; i++) assert_int_equal(race_ids[i][s], race_ids[0][s]);
        }
        abandoned += atomic_load(&shared->abandoned);
    }
    print_message("records abandoned to races over 4 rounds: %llu\n", (unsigned long long)abandoned);
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
        cmocka_unit_test(test_many_stacks),
        cmocka_unit_test(test_index_word_collision),
        cmocka_unit_test(test_hash_tells_near_stacks_apart),
        cmocka_unit_test(test_concurrent_new_stacks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
