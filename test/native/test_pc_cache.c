/* Unit tests of the compiled pc cache (signal/pc_cache.c): a hit returns exactly what was stored, a pc or
 * an nmethod identity it was not stored for misses, a colliding pc evicts the older one, and, with writers
 * and readers racing on the same slots, a hit never returns a chain stored for another identity. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "race_run.h"
#include "signal/pc_cache.h"

#define PC 0x7f0012345678ULL

static pc_cache_identity identity(uint64_t n) {
    return (pc_cache_identity){0x7f0010000000ULL + n * 0x1000, 0x800000000ULL + n * 0x40, (int64_t)n};
}

/* A chain of 'count' frames whose every field derives from n, so a mixed-up value is recognisable. */
static pc_cache_value chain_of(uint64_t n, int count) {
    pc_cache_identity id = identity(n);
    pc_cache_value v = {.blob = {.kind = BLOB_NMETHOD, .blob = id.blob, .method = id.method,
                                 .code_begin = id.blob + 0x100, .code_end = id.blob + 0x900,
                                 .frame_bytes = 16 * (n % 7 + 2), .frame_complete = id.blob + 0x120},
                        .count = count};
    for (int i = 0; i < count; i++)
        v.frames[i] = (trace_frame){0x5000000ULL + n * 16 + (uint64_t)i, (int32_t)(n % 1000) + i,
                                    i + 1 < count ? FRAME_JAVA_INLINED : FRAME_JAVA_JIT};
    return v;
}

static void assert_same(const pc_cache_value *a, const pc_cache_value *b) {
    assert_int_equal(a->count, b->count);
    assert_int_equal(a->blob.kind, b->blob.kind);
    assert_int_equal(a->blob.blob, b->blob.blob);
    assert_int_equal(a->blob.method, b->blob.method);
    assert_int_equal(a->blob.code_begin, b->blob.code_begin);
    assert_int_equal(a->blob.code_end, b->blob.code_end);
    assert_int_equal(a->blob.frame_bytes, b->blob.frame_bytes);
    assert_int_equal(a->blob.frame_complete, b->blob.frame_complete);
    for (int i = 0; i < a->count; i++) {
        assert_int_equal(a->frames[i].id, b->frames[i].id);
        assert_int_equal(a->frames[i].bci, b->frames[i].bci);
        assert_int_equal(a->frames[i].kind, b->frames[i].kind);
    }
}

static void hit_returns_what_was_stored(void **state) {
    (void)state;
    pc_cache_clear();
    pc_cache_identity id = identity(3);
    pc_cache_value in = chain_of(3, 4), out;
    pc_cache_put(PC, &id, &in);
    assert_true(pc_cache_get(PC, &id, &out));
    assert_same(&in, &out);
    /* A chain of the longest cached length round-trips too. */
    pc_cache_identity id9 = identity(9);
    pc_cache_value longest = chain_of(9, PC_CACHE_FRAMES);
    pc_cache_put(PC + 1, &id9, &longest);
    assert_true(pc_cache_get(PC + 1, &id9, &out));
    assert_same(&longest, &out);
}

static void miss_for_another_pc_or_an_empty_cache(void **state) {
    (void)state;
    pc_cache_clear();
    pc_cache_identity id = identity(3);
    pc_cache_value v = chain_of(3, 2), out;
    assert_false(pc_cache_get(PC, &id, &out));
    pc_cache_put(PC, &id, &v);
    assert_false(pc_cache_get(PC + 8, &id, &out));
    /* Nothing is stored for a chain the cache cannot hold: empty, or longer than its slots. */
    pc_cache_value empty = chain_of(4, 0), long_chain = chain_of(4, PC_CACHE_FRAMES);
    long_chain.count = PC_CACHE_FRAMES + 1;
    pc_cache_put(PC + 16, &id, &empty);
    pc_cache_put(PC + 24, &id, &long_chain);
    assert_false(pc_cache_get(PC + 16, &id, &out));
    assert_false(pc_cache_get(PC + 24, &id, &out));
}

static void colliding_pc_evicts_the_older(void **state) {
    (void)state;
    pc_cache_clear();
    uintptr_t other = PC + 1;
    while (pc_cache_slot(other) != pc_cache_slot(PC)) other++;
    pc_cache_identity a = identity(1), b = identity(2);
    pc_cache_value va = chain_of(1, 3), vb = chain_of(2, 1), out;
    pc_cache_put(PC, &a, &va);
    pc_cache_put(other, &b, &vb);
    assert_false(pc_cache_get(PC, &a, &out));
    assert_true(pc_cache_get(other, &b, &out));
    assert_same(&vb, &out);
}

/* A leaf's entry goes only where no return address is: into an empty slot or over another leaf's entry,
 * never over a caller's; a caller's entry replaces a leaf's. */
static void leaf_never_evicts_a_caller(void **state) {
    (void)state;
    pc_cache_clear();
    uintptr_t other = PC + 1, third = 0;
    while (pc_cache_slot(other) != pc_cache_slot(PC)) other++;
    for (third = other + 1; pc_cache_slot(third) != pc_cache_slot(PC); third++) {}
    pc_cache_identity a = identity(1), b = identity(2), c = identity(3);
    pc_cache_value va = chain_of(1, 3), vb = chain_of(2, 1), vc = chain_of(3, 2), out;
    pc_cache_put(PC, &a, &va);
    pc_cache_put_leaf(other, &b, &vb);
    assert_false(pc_cache_get(other, &b, &out));
    assert_true(pc_cache_get(PC, &a, &out));
    assert_same(&va, &out);
    pc_cache_clear();
    pc_cache_put_leaf(PC, &a, &va);   /* empty slot */
    assert_true(pc_cache_get(PC, &a, &out));
    assert_same(&va, &out);
    pc_cache_put_leaf(other, &b, &vb);   /* over a leaf */
    assert_false(pc_cache_get(PC, &a, &out));
    assert_true(pc_cache_get(other, &b, &out));
    assert_same(&vb, &out);
    pc_cache_put(third, &c, &vc);   /* a caller over a leaf */
    assert_true(pc_cache_get(third, &c, &out));
    assert_same(&vc, &out);
    pc_cache_put_leaf(PC, &a, &va);
    assert_false(pc_cache_get(PC, &a, &out));
    assert_true(pc_cache_get(third, &c, &out));
}

/* The same pc in another nmethod (freed and its memory reused, or recompiled at the same address): each
 * part of the identity on its own makes the old chain unreachable. */
static void another_identity_never_gets_the_old_chain(void **state) {
    (void)state;
    pc_cache_clear();
    pc_cache_identity old = identity(5);
    pc_cache_value v = chain_of(5, 3), out;
    pc_cache_put(PC, &old, &v);
    pc_cache_identity recompiled = old, moved = old, other_method = old;
    recompiled.compile_id++;
    moved.blob += 0x40;
    other_method.method += 8;
    assert_false(pc_cache_get(PC, &recompiled, &out));
    assert_false(pc_cache_get(PC, &moved, &out));
    assert_false(pc_cache_get(PC, &other_method, &out));
    /* Once the new nmethod's chain is stored, the old identity misses and the new one gets its own. */
    pc_cache_value fresh = chain_of(6, 2);
    fresh.blob.blob = recompiled.blob;   /* the blob is the identity's: the same address, a new compile */
    fresh.blob.method = recompiled.method;
    pc_cache_put(PC, &recompiled, &fresh);
    assert_false(pc_cache_get(PC, &old, &out));
    assert_true(pc_cache_get(PC, &recompiled, &out));
    assert_same(&fresh, &out);
}

/* Writers storing three nmethods' chains for one pc while readers look it up: every hit
 * must be exactly the chain of the identity asked for, never a mix or another nmethod's. */
#define RACE_PCS 1

static void *race_writer(void *arg) {
    uint64_t n = (uint64_t)(uintptr_t)arg;
    while (atomic_load(&racing)) {
        uint64_t which = race_pick(&n, 3);
        pc_cache_identity id = identity(which);
        pc_cache_value v = chain_of(which, (int)(which % PC_CACHE_FRAMES) + 1);
        pc_cache_put(PC + ((n >> 40) % RACE_PCS) * 8, &id, &v);
    }
    return NULL;
}

static void *race_reader(void *arg) {
    uint64_t n = (uint64_t)(uintptr_t)arg;
    while (atomic_load(&racing)) {
        uint64_t which = race_pick(&n, 3);
        pc_cache_identity id = identity(which);
        pc_cache_value out, want = chain_of(which, (int)(which % PC_CACHE_FRAMES) + 1);
        if (!pc_cache_get(PC + ((n >> 40) % RACE_PCS) * 8, &id, &out)) continue;
        atomic_fetch_add(&race_hits, 1);
        bool same = out.count == want.count && out.blob.code_end == want.blob.code_end &&
                    out.blob.frame_bytes == want.blob.frame_bytes;
        for (int i = 0; same && i < out.count; i++)
            same = out.frames[i].id == want.frames[i].id && out.frames[i].bci == want.frames[i].bci &&
                   out.frames[i].kind == want.frames[i].kind;
        if (!same) atomic_fetch_add(&race_bad, 1);
    }
    return NULL;
}

static void racing_writers_never_give_a_mixed_chain(void **state) {
    (void)state;
    pc_cache_clear();
    race_run(race_writer, race_reader, &racing, &race_hits, &race_bad);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hit_returns_what_was_stored),
        cmocka_unit_test(miss_for_another_pc_or_an_empty_cache),
        cmocka_unit_test(colliding_pc_evicts_the_older),
        cmocka_unit_test(leaf_never_evicts_a_caller),
        cmocka_unit_test(another_identity_never_gets_the_old_chain),
        cmocka_unit_test(racing_writers_never_give_a_mixed_chain),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
