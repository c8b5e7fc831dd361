/*
 * Unit tests of the class file rewriter on hand-built classes: the prologue, constant pool reuse and limits,
 * every pool tag, versions, every instruction format (switch alignments, wide, all branches, jsr/ret), each
 * code offset that must move (exception table, StackMapTable, line and local variable tables, type
 * annotations), the code length limit, and malformed input of every part, which must be refused with a
 * reason naming what is wrong. Real classes (truncated at every byte, rewritten twice) are in
 * test_classfile_real.c.
 */
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
    const classfile_pool *p = &tc->pool;
    uint16_t ref = classfile_u2(tc->code + 1);
    assert_true(ref > 0 && ref < p->count && p->tags[ref] == CP_METHODREF);
    const uint8_t *e = p->data + p->offsets[ref] + 1;
    assert_true(classfile_pool_utf8_is(p, classfile_pool_class_name(p, classfile_u2(e)), HELPER));
    const uint8_t *nat = p->data + p->offsets[classfile_u2(e + 2)] + 1;
    assert_true(classfile_pool_utf8_is(p, classfile_u2(nat), HELPER_METHOD));
    assert_true(classfile_pool_utf8_is(p, classfile_u2(nat + 2), "()V"));
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
    classfile_pool_free(&tc.pool);
}

static void test_pool_growth_and_reuse(void **state) {
    (void)state;
    static const uint8_t code[] = {0xb1};
    size_t len;
    uint8_t *in = one_method(52, code, sizeof(code), &len);
    uint16_t before = classfile_u2(in + 8);
    rewrite(in, len);
    /* Utf8 class and method names, Class, NameAndType, Methodref; "()V" is m's own descriptor: reused */
    assert_int_equal(classfile_u2(out + 8), before + 5);

    /* rewriting the output again reuses the Methodref: no new entry */
    uint8_t *again = malloc(out_len);
    memcpy(again, out, out_len);
    size_t again_len = out_len;
    uint16_t count = classfile_u2(again + 8);
    rewrite(again, again_len);
    assert_int_equal(classfile_u2(out + 8), count);
    tcode tc;
    assert_true(t_find_code(out, out_len, "m", &tc));
    assert_int_equal(tc.code_len, 9);
    assert_prologue(&tc);
    assert_memory_equal(tc.code, tc.code + 4, 4);  /* the same call twice: the same reused index */
    classfile_pool_free(&tc.pool);

    /* some parts present (the class and "()V"): only the name, NameAndType and Methodref are added */
    tclass c;
    tclass_init(&c, 52, "T");
    t_ref1(&c, CP_CLASS, t_utf8(&c, HELPER));
    t_utf8(&c, "()V");
    t_simple_method(&c, "m", code, sizeof(code));
    in = tclass_finish(&c, &len);
    before = classfile_u2(in + 8);
    rewrite(in, len);
    assert_int_equal(classfile_u2(out + 8), before + 3);
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
    classfile_pool pool;
    classfile_err err = {why, sizeof(why)};
    assert_true(classfile_pool_parse(&pool, copy, len, &err));
    assert_memory_equal(out + 10, copy + 10, pool.end - 10);
    classfile_pool_free(&pool);
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

/* Versions 45.0-45.2 once had a JDK 1.0 Code layout (u1 max_stack, u1 max_locals, u2 code_length); HotSpot
 * reads them with the usual one (GenOldClasses' Old45 shows it), so the rewriter does too. */
static void test_version_45_2_layout(void **state) {
    (void)state;
    static const uint8_t code[] = {0x04, 0x3b, 0xb1};  /* iconst_1 istore_0 return */
    size_t len;
    uint8_t *in = one_method(45, code, sizeof(code), &len);
    in[5] = 2;  /* 45.2 */
    rewrite(in, len);
    tcode tc;
    assert_true(t_find_code(out, out_len, "m", &tc));
    assert_int_equal(tc.code_len, 7);
    assert_prologue(&tc);
    assert_memory_equal(tc.code + 4, code, sizeof(code));
    classfile_pool_free(&tc.pool);
}

/* Length of each opcode per JVMS 6.5, the test's own oracle (0: variable or undefined). */
static int spec_length(int op) {
    if (op <= 0x0f) return 1;
    if (op == 0x10 || op == 0x12 || (op >= 0x15 && op <= 0x19) || (op >= 0x36 && op <= 0x3a) || op == 0xa9 ||
        op == 0xbc)
        return 2;
    if (op == 0x11 || op == 0x13 || op == 0x14 || op == 0x84 || (op >= 0x99 && op <= 0xa8) ||
        (op >= 0xb2 && op <= 0xb8) || op == 0xbb || op == 0xbd || op == 0xc0 || op == 0xc1 || op == 0xc6 ||
        op == 0xc7)
        return 3;
    if (op == 0xc5) return 4;
    if (op == 0xb9 || op == 0xba || op == 0xc8 || op == 0xc9) return 5;
    if ((op >= 0x1a && op <= 0x35) || (op >= 0x3b && op <= 0x98 && op != 0x84) || (op >= 0xac && op <= 0xb1) ||
        (op >= 0xbe && op <= 0xc3 && op != 0xc0 && op != 0xc1))
        return 1;
    return 0;
}

/* Rewrites a class whose method m has this code; the code after the prologue must be the same bytes. */
static void rewrites_code_unchanged(int major, const uint8_t *code, uint32_t len) {
    size_t n;
    uint8_t *in = one_method(major, code, len, &n);
    rewrite(in, n);
    tcode tc;
    assert_true(t_find_code(out, out_len, "m", &tc));
    assert_int_equal(tc.code_len, len + 4);
    assert_prologue(&tc);
    assert_memory_equal(tc.code + 4, code, len);
    classfile_pool_free(&tc.pool);
}

static void refuses_code(const uint8_t *code, uint32_t len, const char *mention) {
    size_t n;
    uint8_t *in = one_method(52, code, len, &n);
    refused(in, n, mention);
}

static void test_every_instruction_format(void **state) {
    (void)state;
    tb code = {0};
    for (int op = 0; op <= 0xc9; op++) {
        int n = spec_length(op);
        if (n == 0) continue;
        tb1(&code, op);
        for (int i = 1; i < n; i++) tb1(&code, 0);  /* branch offsets 0: the branch itself, a valid target */
    }
    static const uint8_t wide[] = {0xc4, 0x15, 1, 0, 0xc4, 0x19, 1, 0, 0xc4, 0x36, 1, 0, 0xc4, 0x3a, 1, 0,
                                   0xc4, 0xa9, 1, 0, 0xc4, 0x84, 1, 0, 0x80, 0};
    tb_put(&code, wide, sizeof(wide));
    tb1(&code, 0xb1);
    rewrites_code_unchanged(49, code.d, (uint32_t)code.n);  /* jsr/ret are legal before version 51 */

    /* every instruction cut short, alone at the end of the code */
    for (int op = 0; op <= 0xc9; op++) {
        int n = spec_length(op);
        if (n < 2) continue;
        uint8_t cut[256] = {(uint8_t)op};
        char mention[96];
        snprintf(mention, sizeof(mention), "(opcode 0x%02x) at code offset 0", op);
        refuses_code(cut, (uint32_t)n - 1, mention);
    }
    static const uint8_t wide_bad[] = {0xc4, 0x10, 0, 0, 0xb1}, wide_cut[] = {0xc4, 0x84, 0, 1, 0};
    refuses_code(wide_bad, sizeof(wide_bad), "(opcode 0xc4) at code offset 0");
    refuses_code(wide_cut, sizeof(wide_cut), "(opcode 0xc4) at code offset 0");
    for (int op = 0xca; op <= 0xff; op++) {  /* breakpoint, impdep1/2 and the undefined rest */
        uint8_t bad[] = {0x00, (uint8_t)op, 0xb1};
        char mention[96];
        snprintf(mention, sizeof(mention), "undefined or truncated instruction (opcode 0x%02x) at code offset 1", op);
        refuses_code(bad, sizeof(bad), mention);
    }
    tb_free(&code);
}

/* pre nops, iconst_0, a switch (opcode at pre + 1) with targets on the three returns after it. */
static uint32_t switch_code(uint8_t *code, int pre, bool lookup) {
    uint32_t n = 0;
    for (int i = 0; i < pre; i++) code[n++] = 0x00;
    code[n++] = 0x03;
    uint32_t at = n;
    code[n++] = lookup ? 0xab : 0xaa;
    while (n % 4) code[n++] = 0;  /* padding: 3 - (at % 4) bytes */
    uint32_t table = n;
    n += lookup ? 8 + 2 * 8 : 12 + 2 * 4;
    uint32_t ret = n;
    code[n++] = 0xb1, code[n++] = 0xb1, code[n++] = 0xb1;
    classfile_put4(code + table, ret - at);  /* default */
    if (lookup) {
        classfile_put4(code + table + 4, 2);
        classfile_put4(code + table + 8, 5), classfile_put4(code + table + 12, ret + 1 - at);
        classfile_put4(code + table + 16, 9), classfile_put4(code + table + 20, ret + 2 - at);
    } else {
        classfile_put4(code + table + 4, 0), classfile_put4(code + table + 8, 1);
        classfile_put4(code + table + 12, ret + 1 - at), classfile_put4(code + table + 16, ret + 2 - at);
    }
    return n;
}

static void test_switch_alignments(void **state) {
    (void)state;
    for (int pre = 0; pre < 4; pre++) {
        for (int lookup = 0; lookup < 2; lookup++) {
            uint8_t code[64];
            uint32_t n = switch_code(code, pre, lookup);
            /* padding before the rewrite is 3 - (pre + 1) % 4 ... and the same after: the switch moves by 4 */
            rewrites_code_unchanged(52, code, n);
        }
    }
    /* the shortest switches, at the very end of the code: a lookupswitch with no pairs (javac writes
     * these for an empty switch on a string hash) and a one-entry tableswitch, each at every alignment */
    for (int pre = 0; pre < 4; pre++) {
        uint8_t code[32] = {0};
        uint32_t n = (uint32_t)pre;
        code[n++] = 0x03;  /* iconst_0 */
        uint32_t at = n;
        code[n++] = 0xab;
        n = (n + 3) & ~3u;
        classfile_put4(code + n, (n + 8) - at);  /* default: the return right after */
        n += 8;
        code[n++] = 0xb1;
        rewrites_code_unchanged(52, code, n);
        memset(code, 0, sizeof(code));
        n = (uint32_t)pre;
        code[n++] = 0x03;
        at = n;
        code[n++] = 0xaa;
        n = (n + 3) & ~3u;
        classfile_put4(code + n, (n + 16) - at);
        classfile_put4(code + n + 12, (n + 16) - at);  /* low = high = 0 */
        n += 16;
        code[n++] = 0xb1;
        rewrites_code_unchanged(52, code, n);
    }
    uint8_t code[64];
    uint32_t n = switch_code(code, 0, false);
    classfile_put4(code + 8, 5), classfile_put4(code + 12, 4);  /* high < low */
    refuses_code(code, n, "(opcode 0xaa) at code offset 1");
    n = switch_code(code, 0, true);
    classfile_put4(code + 8, 0x40000000);  /* more pairs than the code holds */
    refuses_code(code, n, "(opcode 0xab) at code offset 1");
    n = switch_code(code, 2, false);
    refuses_code(code, 6, "(opcode 0xaa) at code offset 3");  /* cut inside the default offset */
    n = switch_code(code, 1, false);
    classfile_put4(code + 4, 2);  /* default into the switch's own operands */
    refuses_code(code, n, "branch at code offset 2 goes to 4, not the start of an instruction");
    n = switch_code(code, 1, true);
    classfile_put4(code + 24, 1000);  /* second pair's target outside the code */
    refuses_code(code, n, "branch at code offset 2 goes to 1002");
}

static void test_branches(void **state) {
    (void)state;
    static const uint8_t loop[] = {0x00, 0xa7, 0xff, 0xff};                 /* nop; goto 0: back to the start */
    static const uint8_t loop_w[] = {0x00, 0xc8, 0xff, 0xff, 0xff, 0xff};  /* nop; goto_w 0 */
    static const uint8_t jsr[] = {0xa8, 0x00, 0x09, 0xc9, 0x00, 0x00, 0x00, 0x06, 0xb1, 0x4b, 0xa9, 0x00};
    static const uint8_t cond[] = {0x03, 0x99, 0x00, 0x05, 0x00, 0x00, 0xc6, 0xff, 0xfc, 0xb1};
    rewrites_code_unchanged(52, loop, sizeof(loop));
    rewrites_code_unchanged(52, loop_w, sizeof(loop_w));
    rewrites_code_unchanged(49, jsr, sizeof(jsr));
    static const uint8_t cond_ok[] = {0x03, 0x99, 0x00, 0x05, 0x00, 0x00, 0x01, 0xc6, 0xff, 0xfa, 0xb1};
    rewrites_code_unchanged(52, cond_ok, sizeof(cond_ok));
    refuses_code(cond, sizeof(cond), "branch at code offset 6 goes to 2, not the start of an instruction");
    static const uint8_t past_end[] = {0xa7, 0x00, 0x64, 0xb1};
    static const uint8_t before_start[] = {0x00, 0xc8, 0xff, 0xff, 0xff, 0xf0, 0xb1};
    refuses_code(past_end, sizeof(past_end), "branch at code offset 0 goes to 100");
    refuses_code(before_start, sizeof(before_start), "branch at code offset 1 goes to -15");
}

/* Class T, method m: code, handlers, and Code sub-attributes made by 'attrs' (which may add pool entries). */
typedef void (*attr_maker)(tclass *c, tb *attrs, int *n);

static uint8_t *method_with(const uint8_t *code, uint32_t len, const uint16_t *handlers, int n_handlers,
                            attr_maker make, size_t *class_len) {
    tclass c;
    tclass_init(&c, 52, "T");
    tb attrs = {0}, body = {0};
    int n_attrs = 0;
    if (make) make(&c, &attrs, &n_attrs);
    t_code_body(&body, code, len, handlers, n_handlers, &attrs, n_attrs);
    t_method(&c, 0x0009, "m", "()V", &body);
    tb_free(&attrs);
    tb_free(&body);
    return tclass_finish(&c, class_len);
}

static const uint8_t code80[80] = {[79] = 0xb1};  /* 79 nops and a return */

static void test_exception_table(void **state) {
    (void)state;
    static const uint16_t handlers[] = {0, 2, 10, 0, 5, 79, 12, 7};
    size_t n;
    uint8_t *in = method_with(code80, 80, handlers, 2, NULL, &n);
    rewrite(in, n);
    tcode tc;
    assert_true(t_find_code(out, out_len, "m", &tc));
    assert_int_equal(tc.n_handlers, 2);
    static const uint8_t expect[] = {0, 4, 0, 6, 0, 14, 0, 0, 0, 9, 0, 83, 0, 16, 0, 7};
    assert_memory_equal(tc.handlers, expect, sizeof(expect));  /* a handler never covers the helper call */
    classfile_pool_free(&tc.pool);
    static const uint16_t empty[] = {3, 3, 10, 0}, past[] = {0, 81, 10, 0}, handler_past[] = {0, 80, 80, 0};
    in = method_with(code80, 80, empty, 1, NULL, &n);
    refused(in, n, "exception table entry 0 [3, 3) -> 10 outside the code (80 bytes) in method m");
    in = method_with(code80, 80, past, 1, NULL, &n);
    refused(in, n, "exception table entry 0 [0, 81)");
    in = method_with(code80, 80, handler_past, 1, NULL, &n);
    refused(in, n, "exception table entry 0 [0, 80) -> 80");
}

/* The StackMapTable frames under test; each test sets them, then builds. */
static tb frames;
static int n_frames;

static void make_stack_map(tclass *c, tb *attrs, int *n) {
    tb body = {0};
    tb2(&body, (uint32_t)n_frames);
    tb_put(&body, frames.d, frames.n);
    t_attr(c, attrs, "StackMapTable", body.d, body.n);
    (*n)++;
    tb_free(&body);
}

/* Rewrites m (code80) with 'frames' and checks the rewritten table against the expected bytes. */
static void stack_map_becomes(const uint8_t *expect, size_t expect_len) {
    size_t n;
    uint8_t *in = method_with(code80, 80, NULL, 0, make_stack_map, &n);
    rewrite(in, n);
    tcode tc;
    assert_true(t_find_code(out, out_len, "m", &tc));
    uint32_t len;
    const uint8_t *smt = t_code_attr(&tc, "StackMapTable", &len);
    assert_non_null(smt);
    assert_int_equal(len, expect_len + 2);
    assert_int_equal(classfile_u2(smt), n_frames);
    assert_memory_equal(smt + 2, expect, expect_len);
    classfile_pool_free(&tc.pool);
    tb_free(&frames);
}

static void set_frames(int n, const uint8_t *bytes, size_t len) {
    tb_free(&frames);
    n_frames = n;
    tb_put(&frames, bytes, len);
}

static void test_stack_map_table(void **state) {
    (void)state;
    /* same_frame at 10, then same_frame 5 later: only the first delta moves */
    set_frames(2, (const uint8_t[]){10, 5}, 2);
    stack_map_becomes((const uint8_t[]){14, 5}, 2);
    /* a compact first delta that no longer fits becomes the extended form */
    set_frames(2, (const uint8_t[]){60, 0}, 2);
    stack_map_becomes((const uint8_t[]){251, 0, 64, 0}, 4);
    set_frames(1, (const uint8_t[]){64 + 10, 1}, 2);
    stack_map_becomes((const uint8_t[]){64 + 14, 1}, 2);
    /* same_locals_1_stack_item at 61 holding Uninitialized(5): extended form, and the `new` offset moves */
    set_frames(1, (const uint8_t[]){64 + 61, 8, 0, 5}, 4);
    stack_map_becomes((const uint8_t[]){247, 0, 65, 8, 0, 9}, 6);
    set_frames(1, (const uint8_t[]){247, 0, 0, 8, 0, 0}, 6);
    stack_map_becomes((const uint8_t[]){247, 0, 4, 8, 0, 4}, 6);
    /* full_frame: locals [Uninitialized(3), Object #2, Long], stack [Uninitialized(7)];
     * then chop, append [Uninitialized(0), Integer]: every Uninitialized moves, later deltas do not */
    static const uint8_t full[] = {255, 0, 20, 0, 3, 8, 0, 3, 7, 0, 2, 4, 0, 1, 8, 0, 7,
                                   248, 0, 3, 253, 0, 2, 8, 0, 0, 1};
    static const uint8_t full_after[] = {255, 0, 24, 0, 3, 8, 0, 7, 7, 0, 2, 4, 0, 1, 8, 0, 11,
                                         248, 0, 3, 253, 0, 2, 8, 0, 4, 1};
    set_frames(3, full, sizeof(full));
    stack_map_becomes(full_after, sizeof(full_after));

    static const struct {
        int n;
        uint8_t bytes[8];
        size_t len;
    } bad[] = {
        {1, {128}, 1},                 /* reserved frame type */
        {1, {246}, 1},
        {1, {64 + 1, 8, 0, 80}, 4},    /* Uninitialized past the code */
        {1, {64 + 1, 9}, 2},           /* unknown verification type */
        {2, {70, 1}, 2},               /* truncated: two frames announced, one present */
        {1, {255, 0, 1, 0, 2, 1}, 6},  /* full_frame with fewer locals than announced */
        {2, {251, 0, 70, 20}, 4},      /* the second frame lands past the code (offset 91) */
        {1, {10, 0}, 2},               /* a byte after the last frame */
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        set_frames(bad[i].n, bad[i].bytes, bad[i].len);
        size_t n;
        uint8_t *in = method_with(code80, 80, NULL, 0, make_stack_map, &n);
        refused(in, n, "malformed StackMapTable");
    }
    tb_free(&frames);
}

static tb table;  /* the line or local variable table (or annotations) under test */
static const char *table_name;

static void make_table(tclass *c, tb *attrs, int *n) {
    t_attr(c, attrs, table_name, table.d, table.n);
    (*n)++;
}

/* Rewrites code80 with 'table' as sub-attribute 'name'; returns the rewritten table (NULL when dropped). */
static const uint8_t *table_after(const char *name, tcode *tc, uint32_t *len) {
    table_name = name;
    size_t n;
    uint8_t *in = method_with(code80, 80, NULL, 0, make_table, &n);
    rewrite(in, n);
    assert_true(t_find_code(out, out_len, "m", tc));
    return t_code_attr(tc, name, len);
}

static void table_refused(const char *name, const char *mention) {
    table_name = name;
    size_t n;
    uint8_t *in = method_with(code80, 80, NULL, 0, make_table, &n);
    refused(in, n, mention);
}

static void set_table(const uint8_t *bytes, size_t len) {
    tb_free(&table);
    tb_put(&table, bytes, len);
}

static void test_line_numbers_and_locals(void **state) {
    (void)state;
    tcode tc;
    uint32_t len;
    /* lines: the entry at 0 stays (the helper call is on the first line), the others move */
    set_table((const uint8_t[]){0, 2, 0, 0, 0, 10, 0, 5, 0, 11}, 10);
    const uint8_t *t = table_after("LineNumberTable", &tc, &len);
    assert_non_null(t);
    assert_memory_equal(t, ((const uint8_t[]){0, 2, 0, 0, 0, 10, 0, 9, 0, 11}), 10);
    classfile_pool_free(&tc.pool);
    set_table((const uint8_t[]){0, 1, 0, 80, 0, 1}, 6);
    table_refused("LineNumberTable", "malformed LineNumberTable");
    set_table((const uint8_t[]){0, 2, 0, 0, 0, 1}, 6);
    table_refused("LineNumberTable", "malformed LineNumberTable");

    /* locals: live from 0 stays live from 0 (range grows), a later start moves */
    static const uint8_t locals[] = {0, 2, 0, 0, 0, 80, 0, 3, 0, 4, 0, 0, 0, 7, 0, 73, 0, 3, 0, 4, 0, 1};
    static const uint8_t locals_after[] = {0, 2, 0, 0, 0, 84, 0, 3, 0, 4, 0, 0, 0, 11, 0, 73, 0, 3, 0, 4, 0, 1};
    const char *names[] = {"LocalVariableTable", "LocalVariableTypeTable"};
    for (int i = 0; i < 2; i++) {
        set_table(locals, sizeof(locals));
        t = table_after(names[i], &tc, &len);
        assert_non_null(t);
        assert_int_equal(len, sizeof(locals_after));
        assert_memory_equal(t, locals_after, sizeof(locals_after));
        classfile_pool_free(&tc.pool);
        set_table((const uint8_t[]){0, 1, 0, 7, 0, 74, 0, 3, 0, 4, 0, 1}, 12);
        table_refused(names[i], "malformed LocalVariable(Type)Table");
    }
    tb_free(&table);
}

static void test_type_annotations(void **state) {
    (void)state;
    /* localvar (two ranges), catch, instanceof offset, type argument offset; a path, and element values of
     * every kind (nested annotation, array, enum, class, string, int) */
    static const uint8_t annotations[] = {
        0, 4,
        0x40, 0, 2, 0, 0, 0, 9, 0, 1, 0, 5, 0, 2, 0, 2, /* path */ 1, 3, 0, /* type, 0 pairs */ 0, 3, 0, 0,
        0x42, 0, 0, /* path */ 0, 0, 3, 0, 1, 0, 3, '[', 0, 3, 'I', 0, 3, 's', 0, 3, 'c', 0, 3,
        0x43, 0, 12, 0, 0, 3, 0, 1, 0, 3, '@', 0, 3, 0, 1, 0, 3, 'e', 0, 3, 0, 3,
        0x47, 0, 30, 1, 0, 0, 3, 0, 0,
    };
    static const uint8_t after[] = {
        0, 4,
        0x40, 0, 2, 0, 0, 0, 13, 0, 1, 0, 9, 0, 2, 0, 2, 1, 3, 0, 0, 3, 0, 0,
        0x42, 0, 0, 0, 0, 3, 0, 1, 0, 3, '[', 0, 3, 'I', 0, 3, 's', 0, 3, 'c', 0, 3,
        0x43, 0, 16, 0, 0, 3, 0, 1, 0, 3, '@', 0, 3, 0, 1, 0, 3, 'e', 0, 3, 0, 3,
        0x47, 0, 34, 1, 0, 0, 3, 0, 0,
    };
    const char *names[] = {"RuntimeVisibleTypeAnnotations", "RuntimeInvisibleTypeAnnotations"};
    for (int i = 0; i < 2; i++) {
        set_table(annotations, sizeof(annotations));
        tcode tc;
        uint32_t len;
        const uint8_t *t = table_after(names[i], &tc, &len);
        assert_non_null(t);
        assert_int_equal(len, sizeof(after));
        assert_memory_equal(t, after, sizeof(after));
        classfile_pool_free(&tc.pool);
    }
    /* not understood (a class-level target inside Code; a cut value): left out, the method still rewritten */
    static const uint8_t wrong_target[] = {0, 1, 0x10, 0, 0, 0, 0, 3, 0, 0};
    static const uint8_t cut[] = {0, 1, 0x43, 0, 12, 0, 0, 3, 0, 1, 0, 3, '@', 0};
    static const uint8_t offset_past[] = {0, 1, 0x43, 0, 80, 0, 0, 3, 0, 0};
    const uint8_t *bad[] = {wrong_target, cut, offset_past};
    size_t bad_len[] = {sizeof(wrong_target), sizeof(cut), sizeof(offset_past)};
    for (int i = 0; i < 3; i++) {
        set_table(bad[i], bad_len[i]);
        tcode tc;
        uint32_t len;
        assert_null(table_after(names[0], &tc, &len));
        assert_int_equal(tc.n_attrs, 0);
        classfile_pool_free(&tc.pool);
    }
    /* deep nesting of annotation values stops at a limit instead of exhausting the stack */
    tb_free(&table);
    tb_put(&table, (const uint8_t[]){0, 1, 0x43, 0, 1, 0, 0, 3, 0, 1, 0, 3}, 12);
    for (int i = 0; i < 10000; i++) tb_put(&table, (const uint8_t[]){'[', 0, 1}, 3);
    tb_put(&table, (const uint8_t[]){'I', 0, 3}, 3);
    tcode tc;
    uint32_t len;
    assert_null(table_after(names[0], &tc, &len));
    classfile_pool_free(&tc.pool);
    tb_free(&table);
}

static void test_unknown_code_attributes_dropped(void **state) {
    (void)state;
    set_table((const uint8_t[]){1, 2, 3}, 3);
    tcode tc;
    uint32_t len;
    assert_null(table_after("CharacterRangeTable", &tc, &len));
    assert_int_equal(tc.n_attrs, 0);
    classfile_pool_free(&tc.pool);
    tb_free(&table);
}

static void test_code_length_limit(void **state) {
    (void)state;
    uint8_t *code = calloc(65535, 1);  /* nops */
    code[65530] = 0xb1;
    rewrites_code_unchanged(52, code, 65531);  /* 65535 after the prologue: the largest allowed */
    code[65531] = 0xb1;
    refuses_code(code, 65532, "code too long: 65532 bytes + 4 for the helper call > 65535 in method m");
    refuses_code(code, 0, "empty code (code_length 0)");
    free(code);
}

typedef struct {
    char seen[8][64];
    int n;
    const char *select;
} filter_log;

static bool log_filter(const char *class_name, const char *method_name, const char *descriptor, void *arg) {
    filter_log *log = arg;
    if (log->n < 8) snprintf(log->seen[log->n++], 64, "%s.%s%s", class_name, method_name, descriptor);
    return log->select && strcmp(method_name, log->select) == 0;
}

static void test_filter(void **state) {
    (void)state;
    static const uint8_t code[] = {0xb1};
    tb body = {0};
    t_code_body(&body, code, sizeof(code), NULL, 0, NULL, 0);
    tclass c;
    tclass_init(&c, 52, "p/\xed\xa0\xbd\xed\xb8\x80");  /* U+1F600 in modified UTF-8 */
    t_method(&c, 0x0401, "abstract", "()V", NULL);
    t_method(&c, 0x0109, "native", "()V", NULL);
    t_method(&c, 0x0001, "<init>", "(I)V", &body);
    t_method(&c, 0x0009, "b", "()V", &body);
    size_t len;
    uint8_t *in = tclass_finish(&c, &len);

    filter_log log = {.select = "b"};
    assert_int_equal(instrument(in, len, log_filter, &log), CLASSFILE_REWRITTEN);
    assert_int_equal(rewritten, 1);
    assert_int_equal(log.n, 2);  /* abstract and native methods are not offered */
    assert_string_equal(log.seen[0], "p/\xf0\x9f\x98\x80.<init>(I)V");
    assert_string_equal(log.seen[1], "p/\xf0\x9f\x98\x80.b()V");
    tcode tc;
    assert_true(t_find_code(out, out_len, "<init>", &tc));
    assert_int_equal(tc.code_len, 1);  /* not selected: untouched */
    classfile_pool_free(&tc.pool);
    assert_true(t_find_code(out, out_len, "b", &tc));
    assert_int_equal(tc.code_len, 5);
    classfile_pool_free(&tc.pool);

    log = (filter_log){0};
    assert_int_equal(instrument(in, len, log_filter, &log), CLASSFILE_UNCHANGED);
    assert_null(out);
    assert_int_equal(rewritten, 0);
    free(in);

    /* the helper class itself is never instrumented, nor offered */
    tclass_init(&c, 52, HELPER);
    t_method(&c, 0x0009, HELPER_METHOD, "()V", &body);
    in = tclass_finish(&c, &len);
    log = (filter_log){.select = HELPER_METHOD};
    assert_int_equal(instrument(in, len, log_filter, &log), CLASSFILE_UNCHANGED);
    assert_int_equal(log.n, 0);
    free(in);
    tb_free(&body);

    assert_int_equal(classfile_instrument(code, 1, HELPER, HELPER_METHOD, NULL, NULL, &out, &out_len, NULL, why,
                                          sizeof(why)), CLASSFILE_REFUSED);
    assert_non_null(strstr(why, "missing argument"));
}

static void test_method_structure(void **state) {
    (void)state;
    static const uint8_t code[] = {0xb1};
    tb body = {0};
    t_code_body(&body, code, sizeof(code), NULL, 0, NULL, 0);
    tclass c;
    size_t len;
    tclass_init(&c, 52, "T");
    t_method(&c, 0x0401, "a", "()V", &body);
    uint8_t *in = tclass_finish(&c, &len);
    refused(in, len, "method 0: abstract or native with a Code attribute");
    tclass_init(&c, 52, "T");
    t_method(&c, 0x0001, "a", "()V", NULL);
    in = tclass_finish(&c, &len);
    refused(in, len, "method 0: no Code attribute");
    /* two Code attributes: the second appended by hand */
    tclass_init(&c, 52, "T");
    t_method(&c, 0x0001, "a", "()V", &body);
    uint16_t code_name = t_utf8(&c, "Code");
    c.methods.d[7] = 2;  /* attributes_count of the only method */
    tb2(&c.methods, code_name);
    tb4(&c.methods, (uint32_t)body.n);
    tb_put(&c.methods, body.d, body.n);
    in = tclass_finish(&c, &len);
    refused(in, len, "method 0 has two Code attributes");
    /* a Code attribute whose contents disagree with its length */
    tb bad = {0};
    t_code_body(&bad, code, sizeof(code), NULL, 0, NULL, 0);
    bad.d[7] = 9;  /* code_length 9 in a 13-byte attribute */
    tclass_init(&c, 52, "T");
    t_method(&c, 0x0001, "a", "()V", &bad);
    in = tclass_finish(&c, &len);
    refused(in, len, "truncated Code attribute");
    tb_put(&bad, "x", 1);  /* one byte after the sub-attributes */
    bad.d[7] = 1;
    tclass_init(&c, 52, "T");
    t_method(&c, 0x0001, "a", "()V", &bad);
    in = tclass_finish(&c, &len);
    refused(in, len, "Code attribute has 1 bytes after its last sub-attribute in method a");
    tb_free(&bad);
    tb_free(&body);
}

/* A class whose pool count is exactly 'count' (method m's name, descriptor and "Code" the last three). */
static uint8_t *class_with_pool(uint32_t count, size_t *len) {
    tclass c;
    tclass_init(&c, 52, "T");
    while (c.count < count - 3) t_ref2(&c, CP_INTEGER, 0, (uint16_t)c.count);
    static const uint8_t code[] = {0xb1};
    t_simple_method(&c, "m", code, sizeof(code));
    assert_int_equal(c.count, count);
    return tclass_finish(&c, len);
}

static void test_pool_limit(void **state) {
    (void)state;
    size_t len;
    /* five entries are needed ("()V" exists): indexes 65530..65534, the last one a pool can have */
    uint8_t *in = class_with_pool(65530, &len);
    rewrite(in, len);
    assert_int_equal(classfile_u2(out + 8), 65535);
    in = class_with_pool(65531, &len);
    refused(in, len, "constant pool full: 65530 entries already");
}

static void test_huge_counts(void **state) {
    (void)state;
    static const uint8_t pool_huge[] = {0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 52, 0xff, 0xff, 1, 0};
    uint8_t *in = malloc(sizeof(pool_huge));
    memcpy(in, pool_huge, sizeof(pool_huge));
    refused(in, sizeof(pool_huge), "truncated in constant pool entry 1");
    static const uint8_t code[] = {0xb1};
    size_t len;
    tclass c;
    tclass_init(&c, 52, "T");  /* no methods: methods_count is the u2 before the last (attributes_count) */
    in = tclass_finish(&c, &len);
    in[len - 4] = in[len - 3] = 0xff;
    refused(in, len, "truncated in method 0");
    in = one_method(52, code, sizeof(code), &len);
    in[len - 2 - 13 - 4] = 0xff;  /* the Code attribute's length: 0xff00000d */
    refused(in, len, "truncated in method 0, attribute 0");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_prologue, teardown),
        cmocka_unit_test_teardown(test_pool_growth_and_reuse, teardown),
        cmocka_unit_test_teardown(test_every_pool_tag, teardown),
        cmocka_unit_test_teardown(test_bad_pool_entries, teardown),
        cmocka_unit_test_teardown(test_header_and_versions, teardown),
        cmocka_unit_test_teardown(test_version_45_2_layout, teardown),
        cmocka_unit_test_teardown(test_every_instruction_format, teardown),
        cmocka_unit_test_teardown(test_switch_alignments, teardown),
        cmocka_unit_test_teardown(test_branches, teardown),
        cmocka_unit_test_teardown(test_exception_table, teardown),
        cmocka_unit_test_teardown(test_stack_map_table, teardown),
        cmocka_unit_test_teardown(test_line_numbers_and_locals, teardown),
        cmocka_unit_test_teardown(test_type_annotations, teardown),
        cmocka_unit_test_teardown(test_unknown_code_attributes_dropped, teardown),
        cmocka_unit_test_teardown(test_code_length_limit, teardown),
        cmocka_unit_test_teardown(test_filter, teardown),
        cmocka_unit_test_teardown(test_method_structure, teardown),
        cmocka_unit_test_teardown(test_pool_limit, teardown),
        cmocka_unit_test_teardown(test_huge_counts, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
