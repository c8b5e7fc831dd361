/*
 * Unit tests of the class file rewriter on hand-built classes: the prologue, constant pool reuse and limits,
 * every pool tag, versions, every instruction format (switch alignments, wide, all branches, jsr/ret), each
 * code offset that must move (exception table, StackMapTable, line and local variable tables, type
 * annotations), the code length limit, and malformed input of every part, which must be refused with a
 * reason naming what is wrong. Real classes (truncated at every byte, rewritten twice) are in
 * test_classfile_real.c.
 */
#define _GNU_SOURCE  /* memmem */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>

#include "classfile_builder.h"

#define HELPER "libprof/Helper"
#define HELPER_METHOD "hit"

static char why[512];
static uint8_t *out;
static size_t out_len;
static int rewritten;

static classfile_result instrument(const uint8_t *in, size_t len, classfile_method_filter filter, void *arg) {
    free(out);
    out = NULL;
    return classfile_instrument(in, len, HELPER, HELPER_METHOD, filter, arg, &out, &out_len, &rewritten, why,
                                sizeof(why));
}

/* Rewrites with every method selected; fails the test unless REWRITTEN. Frees 'in'. */
static void rewrite(uint8_t *in, size_t len) {
    classfile_result r = instrument(in, len, t_select_all, NULL);
    free(in);
    if (r != CLASSFILE_REWRITTEN) fail_msg("not rewritten (%d): %s", r, why);
    assert_non_null(out);
}

/* Fails unless REFUSED with a reason containing 'mention'. Frees 'in'. */
static void refused(uint8_t *in, size_t len, const char *mention) {
    classfile_result r = instrument(in, len, t_select_all, NULL);
    free(in);
    if (r != CLASSFILE_REFUSED) fail_msg("not refused (%d), expected a reason naming '%s'", r, mention);
    assert_null(out);
    if (!strstr(why, mention)) fail_msg("reason '%s' does not name '%s'", why, mention);
}

static int teardown(void **state) {
    (void)state;
    free(out);
    out = NULL;
    return 0;
}

/* The class "T" (version 'major') with one static method m()V of this code. */
static uint8_t *one_method(int major, const uint8_t *code, uint32_t len, size_t *class_len) {
    tclass c;
    tclass_init(&c, major, "T");
    t_simple_method(&c, "m", code, len);
    return tclass_finish(&c, class_len);
}

/* The methodref at code[1..2] of method 'name' in 'out' names HELPER.HELPER_METHOD()V. */
static void assert_prologue(const tcode *tc) {
    assert_int_equal(tc->code[0], 0xb8);
    assert_int_equal(tc->code[3], 0x00);
    const cf_pool *p = &tc->pool;
    uint16_t ref = cf_u2(tc->code + 1);
    assert_true(ref > 0 && ref < p->count && p->tags[ref] == CP_METHODREF);
    const uint8_t *e = p->data + p->offsets[ref] + 1;
    assert_true(cf_pool_utf8_is(p, cf_pool_class_name(p, cf_u2(e)), HELPER));
    const uint8_t *nat = p->data + p->offsets[cf_u2(e + 2)] + 1;
    assert_true(cf_pool_utf8_is(p, cf_u2(nat), HELPER_METHOD));
    assert_true(cf_pool_utf8_is(p, cf_u2(nat + 2), "()V"));
}

static void test_prologue(void **state) {
    (void)state;
    static const uint8_t code[] = {0xb1};  /* return */
    size_t len;
    uint8_t *in = one_method(52, code, sizeof(code), &len);
    rewrite(in, len);
    assert_int_equal(rewritten, 1);
    tcode tc;
    assert_true(t_find_code(out, out_len, "m", &tc));
    assert_int_equal(tc.code_len, 5);
    assert_prologue(&tc);
    assert_int_equal(tc.code[4], 0xb1);
    assert_int_equal(tc.max_stack, 4);  /* a ()V call needs no stack: unchanged */
    assert_int_equal(tc.max_locals, 4);
    cf_pool_free(&tc.pool);
}

static void test_pool_growth_and_reuse(void **state) {
    (void)state;
    static const uint8_t code[] = {0xb1};
    size_t len;
    uint8_t *in = one_method(52, code, sizeof(code), &len);
    uint16_t before = cf_u2(in + 8);
    rewrite(in, len);
    /* Utf8 class and method names, Class, NameAndType, Methodref; "()V" is m's own descriptor: reused */
    assert_int_equal(cf_u2(out + 8), before + 5);

    /* rewriting the output again reuses the Methodref: no new entry */
    uint8_t *again = malloc(out_len);
    memcpy(again, out, out_len);
    size_t again_len = out_len;
    uint16_t count = cf_u2(again + 8);
    rewrite(again, again_len);
    assert_int_equal(cf_u2(out + 8), count);
    tcode tc;
    assert_true(t_find_code(out, out_len, "m", &tc));
    assert_int_equal(tc.code_len, 9);
    assert_prologue(&tc);
    assert_memory_equal(tc.code, tc.code + 4, 4);  /* the same call twice: the same reused index */
    cf_pool_free(&tc.pool);

    /* some parts present (the class and "()V"): only the name, NameAndType and Methodref are added */
    tclass c;
    tclass_init(&c, 52, "T");
    t_ref1(&c, CP_CLASS, t_utf8(&c, HELPER));
    t_utf8(&c, "()V");
    t_simple_method(&c, "m", code, sizeof(code));
    in = tclass_finish(&c, &len);
    before = cf_u2(in + 8);
    rewrite(in, len);
    assert_int_equal(cf_u2(out + 8), before + 3);
}

static void test_every_pool_tag(void **state) {
    (void)state;
    tclass c;
    tclass_init(&c, 69, "T");
    uint16_t name = t_utf8(&c, "x"), desc = t_utf8(&c, "I"), mdesc = t_utf8(&c, "()V");
    uint16_t cls = t_ref1(&c, CP_CLASS, t_utf8(&c, "java/lang/Object"));
    uint16_t nat = t_ref2(&c, CP_NAME_AND_TYPE, name, desc), mnat = t_ref2(&c, CP_NAME_AND_TYPE, name, mdesc);
    uint16_t field = t_ref2(&c, CP_FIELDREF, cls, nat);
    uint16_t method = t_ref2(&c, CP_METHODREF, cls, mnat);
    uint16_t imethod = t_ref2(&c, CP_INTERFACE_METHODREF, cls, mnat);
    t_ref2(&c, CP_INTEGER, 0x1234, 0x5678);
    t_ref2(&c, CP_FLOAT, 0x3f80, 0);
    t_wide_const(&c, CP_LONG);
    t_wide_const(&c, CP_DOUBLE);
    t_ref1(&c, CP_STRING, name);
    t_method_handle(&c, 1, field);    /* getField */
    t_method_handle(&c, 6, method);   /* invokeStatic */
    t_method_handle(&c, 9, imethod);  /* invokeInterface */
    t_ref1(&c, CP_METHOD_TYPE, mdesc);
    t_ref2(&c, CP_DYNAMIC, 0, nat);
    t_ref2(&c, CP_INVOKE_DYNAMIC, 1, mnat);
    t_ref1(&c, CP_MODULE, t_utf8(&c, "m.odule"));
    t_ref1(&c, CP_PACKAGE, t_utf8(&c, "p/kg"));
    static const uint8_t code[] = {0xb1};
    t_simple_method(&c, "m", code, sizeof(code));
    size_t len;
    uint8_t *in = tclass_finish(&c, &len);
    uint8_t *copy = malloc(len);
    memcpy(copy, in, len);
    rewrite(in, len);
    /* the existing pool is copied byte for byte, the new entries follow it */
    cf_pool pool;
    cf_err err = {why, sizeof(why)};
    assert_true(cf_pool_parse(&pool, copy, len, &err));
    assert_memory_equal(out + 10, copy + 10, pool.end - 10);
    cf_pool_free(&pool);
    free(copy);
}

/* One pool entry appended to an otherwise valid class, which must be refused for it. */
static void refused_with_entry(const uint8_t *entry, size_t n, const char *mention) {
    tclass c;
    tclass_init(&c, 52, "T");
    t_utf8(&c, "u");  /* index 3 */
    tb_put(&c.pool, entry, n);
    c.count++;
    static const uint8_t code[] = {0xb1};
    t_simple_method(&c, "m", code, sizeof(code));
    size_t len;
    uint8_t *in = tclass_finish(&c, &len);
    refused(in, len, mention);
}

static void test_bad_pool_entries(void **state) {
    (void)state;
    static const uint8_t unknown2[] = {2, 0, 0}, unknown13[] = {13, 0, 3}, unknown21[] = {21, 0, 3};
    refused_with_entry(unknown2, sizeof(unknown2), "unknown constant pool tag 2 at index 4");
    refused_with_entry(unknown13, sizeof(unknown13), "unknown constant pool tag 13");
    refused_with_entry(unknown21, sizeof(unknown21), "unknown constant pool tag 21");
    static const uint8_t class_to_class[] = {CP_CLASS, 0, 2}, class_to_zero[] = {CP_CLASS, 0, 0},
                         class_past_end[] = {CP_CLASS, 0xff, 0xff}, string_to_self[] = {CP_STRING, 0, 4},
                         nat_bad[] = {CP_NAME_AND_TYPE, 0, 3, 0, 2}, ref_bad[] = {CP_METHODREF, 0, 2, 0, 3},
                         handle_kind0[] = {CP_METHOD_HANDLE, 0, 0, 2}, handle_kind10[] = {CP_METHOD_HANDLE, 10, 0, 2},
                         handle_to_class[] = {CP_METHOD_HANDLE, 6, 0, 2}, dynamic_bad[] = {CP_DYNAMIC, 0, 0, 0, 3},
                         module_bad[] = {CP_MODULE, 0, 2};
    refused_with_entry(class_to_class, sizeof(class_to_class), "entry 4 (tag 7) refers to a missing or wrong-kind");
    refused_with_entry(class_to_zero, sizeof(class_to_zero), "entry 4 (tag 7)");
    refused_with_entry(class_past_end, sizeof(class_past_end), "entry 4 (tag 7)");
    refused_with_entry(string_to_self, sizeof(string_to_self), "entry 4 (tag 8)");
    refused_with_entry(nat_bad, sizeof(nat_bad), "entry 4 (tag 12)");
    refused_with_entry(ref_bad, sizeof(ref_bad), "entry 4 (tag 10)");
    refused_with_entry(handle_kind0, sizeof(handle_kind0), "entry 4 (tag 15)");
    refused_with_entry(handle_kind10, sizeof(handle_kind10), "entry 4 (tag 15)");
    refused_with_entry(handle_to_class, sizeof(handle_to_class), "entry 4 (tag 15)");
    refused_with_entry(dynamic_bad, sizeof(dynamic_bad), "entry 4 (tag 17)");
    refused_with_entry(module_bad, sizeof(module_bad), "entry 4 (tag 19)");
    /* a reference to the unusable second slot of a Long */
    tclass c;
    tclass_init(&c, 52, "T");
    uint16_t l = t_wide_const(&c, CP_LONG);
    t_ref1(&c, CP_STRING, (uint16_t)(l + 1));
    size_t len;
    uint8_t *in = tclass_finish(&c, &len);
    refused(in, len, "refers to a missing or wrong-kind entry");
    /* a Long in the last slot has no room for its second one */
    static const uint8_t long_entry[] = {CP_LONG, 0, 0, 0, 0, 0, 0, 0, 1};
    tclass_init(&c, 52, "T");
    tb_put(&c.pool, long_entry, sizeof(long_entry));
    c.count++;  /* counted as one slot: the pool count says the Long is the last entry */
    in = tclass_finish(&c, &len);
    refused(in, len, "8-byte constant at the last pool index 3");
}

static void test_header_and_versions(void **state) {
    (void)state;
    static const uint8_t code[] = {0xb1};
    size_t len;
    uint8_t *in;
    for (int major = 45; major <= 69; major++) {
        in = one_method(major, code, sizeof(code), &len);
        in[5] = major == 45 ? 3 : 0;
        rewrite(in, len);
    }
    in = one_method(44, code, sizeof(code), &len);
    refused(in, len, "class file version 44.0 not supported (major 45 to 69)");
    in = one_method(70, code, sizeof(code), &len);
    refused(in, len, "class file version 70.0 not supported");
    in = one_method(61, code, sizeof(code), &len);
    in[5] = 1;
    refused(in, len, "minor must be 0 or 65535");
    in = one_method(61, code, sizeof(code), &len);
    in[4] = in[5] = 0xff;  /* preview features */
    rewrite(in, len);
    in = one_method(52, code, sizeof(code), &len);
    in[0] = 0xca, in[3] = 0xbf;
    refused(in, len, "bad magic 0xcafebabf");
    in = one_method(52, code, sizeof(code), &len);
    in[8] = in[9] = 0;
    refused(in, len, "constant pool count is 0");
    in = one_method(52, code, sizeof(code), &len);
    in = realloc(in, len + 1);
    in[len] = 0;
    refused(in, len + 1, "1 extra bytes after the class attributes");
    refused(calloc(1, 1), 0, "truncated header (0 bytes)");
}

/* Versions 45.0-45.2 use the JDK 1.0 Code layout: u1 max_stack, u1 max_locals, u2 code_length. */
static void test_old_code_layout(void **state) {
    (void)state;
    tclass c;
    tclass_init(&c, 45, "T");
    tb body = {0};
    static const uint8_t code[] = {0x04, 0x3b, 0xb1};  /* iconst_1 istore_0 return */
    tb1(&body, 2);
    tb1(&body, 1);
    tb2(&body, sizeof(code));
    tb_put(&body, code, sizeof(code));
    tb2(&body, 0);
    tb2(&body, 0);
    t_method(&c, 0x0009, "m", "()V", &body);
    tb_free(&body);
    size_t len;
    uint8_t *in = tclass_finish(&c, &len);
    in[5] = 2;  /* 45.2 */
    rewrite(in, len);
    /* find the Code attribute by its bytes: u1 2, u1 1, u2 7, then the prologue */
    static const uint8_t expect_head[] = {2, 1, 0, 7, 0xb8};
    const uint8_t *p = memmem(out, out_len, expect_head, sizeof(expect_head));
    assert_non_null(p);
    assert_memory_equal(p + 7, "\x00\x04\x3b\xb1", 4);
    assert_int_equal(cf_u4(p - 4), 4 + 7 + 2 + 2);  /* the attribute length */
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_prologue, teardown),
        cmocka_unit_test_teardown(test_pool_growth_and_reuse, teardown),
        cmocka_unit_test_teardown(test_every_pool_tag, teardown),
        cmocka_unit_test_teardown(test_bad_pool_entries, teardown),
        cmocka_unit_test_teardown(test_header_and_versions, teardown),
        cmocka_unit_test_teardown(test_old_code_layout, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
