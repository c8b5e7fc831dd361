/*
 * classfile_codeattr: rewrites one method's Code attribute (JVMS 4.7.3): the prologue goes in at offset 0
 * and every code offset the attribute holds moves by its length: the exception table, the StackMapTable
 * (the first frame's offset delta, and Uninitialized(offset) types naming `new` instructions in any
 * frame), LineNumberTable, LocalVariableTable, LocalVariableTypeTable and type annotations.
 *
 * Offset 0 is special where a range or position may mean "from the method's start": a line number entry
 * at 0 stays at 0 (the helper call is reported on the method's first line), and a local variable live
 * from 0 stays live from 0 (its range grows by the prologue; parameters are visible at the call). The
 * exception table is not treated so: a handler must not catch what the helper call throws.
 *
 * Code sub-attributes other than those are dropped: the JVM ignores attributes it does not know (JVMS
 * 4.7.1), and one we do not know may hold code offsets we cannot move. Used by classfile.c only.
 */
#include <string.h>

#include "classfile_parts.h"

#define SHIFT CLASSFILE_PROLOGUE_LEN
#define OP_INVOKESTATIC 0xb8
#define OP_NOP 0x00

/* Copies one verification_type_info, moving Uninitialized(offset). */
static bool copy_vtype(classfile_cursor *c, uint32_t code_len, classfile_buf *out) {
    if (!classfile_has(c, 1)) return false;
    uint8_t tag = c->data[c->pos++];
    classfile_buf_put1(out, tag);
    if (tag <= 6) return true;  /* Top Integer Float Double Long Null UninitializedThis */
    uint16_t v;
    if (tag > 8 || !classfile_read2(c, &v)) return false;
    if (tag == 8) {  /* Uninitialized: the offset of the `new` that created the object */
        if (v >= code_len) return false;
        v += SHIFT;
    }
    classfile_buf_put2(out, v);
    return true;
}

static bool copy_vtypes(classfile_cursor *c, uint32_t n, uint32_t code_len, classfile_buf *out) {
    for (uint32_t i = 0; i < n; i++)
        if (!copy_vtype(c, code_len, out)) return false;
    return true;
}

/* Writes a frame header with offset delta 'delta', in the compact form when it still fits. 'compact' is
 * the compact form's base (0 for same_frame, 64 for same_locals_1_stack_item), 'extended' the long one. */
static void put_delta_frame(classfile_buf *out, uint32_t delta, uint8_t compact_base, uint8_t extended) {
    if (delta <= 63) {
        classfile_buf_put1(out, compact_base + delta);
    } else {
        classfile_buf_put1(out, extended);
        classfile_buf_put2(out, delta);
    }
}

/* The StackMapTable (JVMS 4.7.4): frame offsets are deltas from the previous frame, so only the first
 * frame's delta grows; a compact first frame whose delta no longer fits in its type byte becomes its
 * extended form. */
static bool rewrite_stack_map(const uint8_t *body, uint32_t len, uint32_t code_len, classfile_buf *out) {
    classfile_cursor c = {body, len, 0};
    uint16_t frames;
    if (!classfile_read2(&c, &frames)) return false;
    classfile_buf_put2(out, frames);
    int64_t offset = -1;
    for (uint32_t i = 0; i < frames; i++) {
        if (!classfile_has(&c, 1)) return false;
        uint8_t type = body[c.pos++];
        uint32_t add = i == 0 ? SHIFT : 0;
        uint16_t delta;
        if (type <= 127) {  /* same_frame, same_locals_1_stack_item: the delta is in the type byte */
            delta = type & 63;
            if (type <= 63) put_delta_frame(out, delta + add, 0, 251);
            else put_delta_frame(out, delta + add, 64, 247);
            if (type >= 64 && !copy_vtype(&c, code_len, out)) return false;
        } else if (type < 247) {
            return false;  /* reserved frame types */
        } else {
            if (!classfile_read2(&c, &delta)) return false;
            classfile_buf_put1(out, type);
            classfile_buf_put2(out, delta + add);
            if (type == 247 && !copy_vtype(&c, code_len, out)) return false;
            if (type >= 252 && type <= 254 && !copy_vtypes(&c, type - 251u, code_len, out)) return false;
            if (type == 255) {
                uint16_t n;
                if (!classfile_read2(&c, &n)) return false;
                classfile_buf_put2(out, n);
                if (!copy_vtypes(&c, n, code_len, out)) return false;
                if (!classfile_read2(&c, &n)) return false;
                classfile_buf_put2(out, n);
                if (!copy_vtypes(&c, n, code_len, out)) return false;
            }
        }
        offset += (int64_t)delta + 1;
        if (offset >= code_len) return false;
    }
    return c.pos == len;
}

/* LineNumberTable: {start_pc, line_number}[]; an entry at 0 stays there. */
static bool shift_line_numbers(uint8_t *body, uint32_t len, uint32_t code_len) {
    if (len < 2 || len != 2 + 4u * classfile_u2(body)) return false;
    for (uint32_t pos = 2; pos < len; pos += 4) {
        uint32_t pc = classfile_u2(body + pos);
        if (pc >= code_len) return false;
        if (pc != 0) classfile_put2(body + pos, pc + SHIFT);
    }
    return true;
}

/* Local(Type)VariableTable: {start_pc, length, name, descriptor/signature, index}[]; a variable live from
 * 0 stays live from 0 and its range grows. */
static bool shift_local_variables(uint8_t *body, uint32_t len, uint32_t code_len) {
    if (len < 2 || len != 2 + 10u * classfile_u2(body)) return false;
    for (uint32_t pos = 2; pos < len; pos += 10) {
        uint32_t start = classfile_u2(body + pos), length = classfile_u2(body + pos + 2);
        if (start + length > code_len) return false;
        if (start == 0) classfile_put2(body + pos + 2, length + SHIFT);
        else classfile_put2(body + pos, start + SHIFT);
    }
    return true;
}

enum attr_kind { ATTR_OTHER, ATTR_LINES, ATTR_LOCALS, ATTR_STACK_MAP, ATTR_TYPE_ANNOTATIONS };

static enum attr_kind attr_kind_of(const classfile_pool *pool, uint16_t name) {
    if (classfile_pool_utf8_is(pool, name, "LineNumberTable")) return ATTR_LINES;
    if (classfile_pool_utf8_is(pool, name, "LocalVariableTable")) return ATTR_LOCALS;
    if (classfile_pool_utf8_is(pool, name, "LocalVariableTypeTable")) return ATTR_LOCALS;
    if (classfile_pool_utf8_is(pool, name, "StackMapTable")) return ATTR_STACK_MAP;
    if (classfile_pool_utf8_is(pool, name, "RuntimeVisibleTypeAnnotations")) return ATTR_TYPE_ANNOTATIONS;
    if (classfile_pool_utf8_is(pool, name, "RuntimeInvisibleTypeAnnotations")) return ATTR_TYPE_ANNOTATIONS;
    return ATTR_OTHER;
}

/* Writes one sub-attribute of Code, moved; returns false for a malformed one the class must be refused
 * for, and sets *dropped when it was left out instead. */
static bool rewrite_sub_attribute(const classfile_pool *pool, uint16_t name, const uint8_t *body, uint32_t len,
                                  uint32_t code_len, classfile_buf *out, bool *dropped, classfile_err *err) {
    enum attr_kind kind = attr_kind_of(pool, name);
    *dropped = kind == ATTR_OTHER;
    if (kind == ATTR_OTHER) return true;
    size_t start = out->len;
    classfile_buf_put2(out, name);
    size_t len_at = out->len;
    classfile_buf_put4(out, 0);
    size_t body_at = out->len;
    if (kind == ATTR_STACK_MAP) {
        if (!rewrite_stack_map(body, len, code_len, out))
            return classfile_fail(err, "malformed StackMapTable (%u bytes, code length %u)", len, code_len);
    } else {
        classfile_buf_put(out, body, len);
        if (out->failed) return classfile_fail(err, "out of memory");
        uint8_t *copy = out->data + body_at;
        if (kind == ATTR_LINES && !shift_line_numbers(copy, len, code_len))
            return classfile_fail(err, "malformed LineNumberTable (an entry outside the code, or a bad length)");
        if (kind == ATTR_LOCALS && !shift_local_variables(copy, len, code_len))
            return classfile_fail(err,
                "malformed LocalVariable(Type)Table (a range outside the code, or a bad length)");
        if (kind == ATTR_TYPE_ANNOTATIONS && !classfile_type_annotations_shift(copy, len, code_len, SHIFT)) {
            out->len = start;  /* ignored by the JVM at this level: not understood, so left out */
            *dropped = true;
            return true;
        }
    }
    if (out->failed) return classfile_fail(err, "out of memory");
    classfile_put4(out->data + len_at, (uint32_t)(out->len - body_at));
    return true;
}

bool classfile_code_rewrite(const classfile_pool *pool, uint16_t name_index, const uint8_t *body, uint32_t body_len,
                     uint16_t helper_ref, classfile_buf *out, classfile_err *err) {
    classfile_cursor c = {body, body_len, 0};
    uint16_t max_stack, max_locals;
    uint32_t code_len;
    if (!classfile_read2(&c, &max_stack) || !classfile_read2(&c, &max_locals) || !classfile_read4(&c, &code_len))
        return classfile_fail(err, "truncated Code attribute");
    if (code_len == 0) return classfile_fail(err, "empty code (code_length 0)");
    if (code_len > 65535 - SHIFT)
        return classfile_fail(err, "code too long: %u bytes + %u for the helper call > 65535", code_len, SHIFT);
    const uint8_t *code = body + c.pos;
    uint16_t handlers;
    if (!classfile_skip(&c, code_len) || !classfile_read2(&c, &handlers) || !classfile_has(&c, (size_t)handlers * 8))
        return classfile_fail(err, "truncated Code attribute (code or exception table)");
    if (!classfile_code_check(code, code_len, err)) return false;
    const uint8_t *table = body + c.pos;
    c.pos += (size_t)handlers * 8;

    size_t start = out->len;
    classfile_buf_put2(out, name_index);
    classfile_buf_put4(out, 0);  /* length, known at the end */
    /* A ()V static call pushes nothing and needs no local: max_stack and max_locals stay. */
    classfile_buf_put2(out, max_stack);
    classfile_buf_put2(out, max_locals);
    classfile_buf_put4(out, code_len + SHIFT);
    classfile_buf_put1(out, OP_INVOKESTATIC);
    classfile_buf_put2(out, helper_ref);
    classfile_buf_put1(out, OP_NOP);
    classfile_buf_put(out, code, code_len);
    classfile_buf_put2(out, handlers);
    for (uint32_t i = 0; i < handlers; i++) {
        const uint8_t *h = table + i * 8;
        uint32_t from = classfile_u2(h), to = classfile_u2(h + 2), handler = classfile_u2(h + 4);
        if (from >= to || to > code_len || handler >= code_len)
            return classfile_fail(err, "exception table entry %u [%u, %u) -> %u outside the code (%u bytes)", i, from,
                           to, handler, code_len);
        classfile_buf_put2(out, from + SHIFT);
        classfile_buf_put2(out, to + SHIFT);
        classfile_buf_put2(out, handler + SHIFT);
        classfile_buf_put(out, h + 6, 2);  /* catch_type */
    }

    uint16_t attrs;
    if (!classfile_read2(&c, &attrs)) return classfile_fail(err, "truncated Code attribute (attributes count)");
    size_t count_at = out->len;
    classfile_buf_put2(out, 0);
    uint32_t kept = 0;
    for (uint32_t i = 0; i < attrs; i++) {
        uint16_t name;
        uint32_t len;
        if (!classfile_read2(&c, &name) || !classfile_read4(&c, &len) || !classfile_has(&c, len))
            return classfile_fail(err, "truncated Code attribute (attribute %u of %u)", i, attrs);
        bool dropped;
        if (!rewrite_sub_attribute(pool, name, body + c.pos, len, code_len, out, &dropped, err)) return false;
        c.pos += len;
        if (!dropped) kept++;
    }
    if (c.pos != body_len)
        return classfile_fail(err, "Code attribute has %zu bytes after its last sub-attribute", body_len - c.pos);
    if (out->failed) return classfile_fail(err, "out of memory");
    classfile_put2(out->data + count_at, kept);
    uint64_t n = out->len - start - 6;
    if (n > UINT32_MAX) return classfile_fail(err, "Code attribute too long");
    classfile_put4(out->data + start + 2, (uint32_t)n);
    return true;
}
