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
#include <stdlib.h>
#include <string.h>

#include "classfile_parts.h"

#define OP_INVOKESTATIC 0xb8
#define OP_NOP 0x00
#define OP_SIPUSH 0x11
#define OP_ATHROW 0xbf
#define FULL_FRAME 255
#define VTYPE_OBJECT 7

/* Copies one verification_type_info, moving Uninitialized(offset). */
static bool copy_vtype(classfile_cursor *c, const classfile_reloc *r, classfile_buf *out) {
    if (!classfile_has(c, 1)) return false;
    uint8_t tag = c->data[c->pos++];
    classfile_buf_put1(out, tag);
    if (tag <= 6) return true;  /* Top Integer Float Double Long Null UninitializedThis */
    uint16_t v;
    if (tag > 8 || !classfile_read2(c, &v)) return false;
    if (tag == 8) {  /* Uninitialized: the offset of the `new` that created the object */
        if (v >= r->code_len) return false;
        v = (uint16_t)classfile_reloc_map(r, v);
    }
    classfile_buf_put2(out, v);
    return true;
}

static bool copy_vtypes(classfile_cursor *c, uint32_t n, const classfile_reloc *r, classfile_buf *out) {
    for (uint32_t i = 0; i < n; i++)
        if (!copy_vtype(c, r, out)) return false;
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

/* The tracing handler's frame at new offset 'at' after the frame at 'prev' (-1: none): no locals (every
 * frame's locals are assignable to that: Top), a Throwable on the stack. */
static void put_handler_frame(classfile_buf *out, int64_t prev, uint32_t at, uint16_t throwable) {
    classfile_buf_put1(out, FULL_FRAME);
    classfile_buf_put2(out, (uint32_t)(at - prev - 1));
    classfile_buf_put2(out, 0);
    classfile_buf_put2(out, 1);
    classfile_buf_put1(out, VTYPE_OBJECT);
    classfile_buf_put2(out, throwable);
}

/* The StackMapTable (JVMS 4.7.4): frame offsets are deltas from the previous frame; each frame's absolute
 * offset is relocated and the deltas written again, a compact frame whose delta no longer fits in its type
 * byte becoming its extended form. 'handler' (0: none) is the new offset of the tracing handler, whose
 * frame comes last. */
static bool rewrite_stack_map(const uint8_t *body, uint32_t len, const classfile_reloc *r, uint32_t handler,
                              uint16_t throwable, classfile_buf *out) {
    classfile_cursor c = {body, len, 0};
    uint16_t frames;
    if (!classfile_read2(&c, &frames)) return false;
    if (handler && frames == 65535) return false;
    classfile_buf_put2(out, frames + (handler ? 1u : 0u));
    int64_t offset = -1, moved = -1;
    for (uint32_t i = 0; i < frames; i++) {
        if (!classfile_has(&c, 1)) return false;
        uint8_t type = body[c.pos++];
        uint16_t delta;
        if (type <= 127) delta = type & 63;  /* same_frame, same_locals_1_stack_item: in the type byte */
        else if (type < 247 || !classfile_read2(&c, &delta)) return false;  /* reserved frame types */
        offset += (int64_t)delta + 1;
        if (offset >= r->code_len) return false;
        int64_t now = classfile_reloc_map(r, (uint32_t)offset);
        uint32_t new_delta = (uint32_t)(now - moved - 1);
        moved = now;
        if (type <= 127) {
            if (type <= 63) put_delta_frame(out, new_delta, 0, 251);
            else put_delta_frame(out, new_delta, 64, 247);
            if (type >= 64 && !copy_vtype(&c, r, out)) return false;
        } else {
            classfile_buf_put1(out, type);
            classfile_buf_put2(out, new_delta);
            if (type == 247 && !copy_vtype(&c, r, out)) return false;
            if (type >= 252 && type <= 254 && !copy_vtypes(&c, type - 251u, r, out)) return false;
            if (type == 255) {
                uint16_t n;
                if (!classfile_read2(&c, &n)) return false;
                classfile_buf_put2(out, n);
                if (!copy_vtypes(&c, n, r, out)) return false;
                if (!classfile_read2(&c, &n)) return false;
                classfile_buf_put2(out, n);
                if (!copy_vtypes(&c, n, r, out)) return false;
            }
        }
    }
    if (handler) put_handler_frame(out, moved, handler, throwable);
    return c.pos == len;
}

/* LineNumberTable: {start_pc, line_number}[]; an entry at 0 stays there. */
static bool shift_line_numbers(uint8_t *body, uint32_t len, const classfile_reloc *r) {
    if (len < 2 || len != 2 + 4u * classfile_u2(body)) return false;
    for (uint32_t pos = 2; pos < len; pos += 4) {
        uint32_t pc = classfile_u2(body + pos);
        if (pc >= r->code_len) return false;
        if (pc != 0) classfile_put2(body + pos, classfile_reloc_map(r, pc));
    }
    return true;
}

/* Local(Type)VariableTable: {start_pc, length, name, descriptor/signature, index}[]; a variable live from
 * 0 stays live from 0 and its range grows. */
static bool shift_local_variables(uint8_t *body, uint32_t len, const classfile_reloc *r) {
    if (len < 2 || len != 2 + 10u * classfile_u2(body)) return false;
    for (uint32_t pos = 2; pos < len; pos += 10) {
        uint32_t start = classfile_u2(body + pos), length = classfile_u2(body + pos + 2);
        if (start + length > r->code_len) return false;
        uint32_t from = start == 0 ? 0 : classfile_reloc_map(r, start);
        classfile_put2(body + pos, from);
        classfile_put2(body + pos + 2, classfile_reloc_map(r, start + length) - from);
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
                                  const classfile_reloc *r, uint32_t handler, uint16_t throwable,
                                  classfile_buf *out, bool *dropped, classfile_err *err) {
    uint32_t code_len = r->code_len;
    enum attr_kind kind = attr_kind_of(pool, name);
    *dropped = kind == ATTR_OTHER;
    if (kind == ATTR_OTHER) return true;
    size_t start = out->len;
    classfile_buf_put2(out, name);
    size_t len_at = out->len;
    classfile_buf_put4(out, 0);
    size_t body_at = out->len;
    if (kind == ATTR_STACK_MAP) {
        if (!rewrite_stack_map(body, len, r, handler, throwable, out))
            return classfile_fail(err, "malformed StackMapTable (%u bytes, code length %u)", len, code_len);
    } else {
        classfile_buf_put(out, body, len);
        if (out->failed) return classfile_fail(err, "out of memory");
        uint8_t *copy = out->data + body_at;
        if (kind == ATTR_LINES && !shift_line_numbers(copy, len, r))
            return classfile_fail(err, "malformed LineNumberTable (an entry outside the code, or a bad length)");
        if (kind == ATTR_LOCALS && !shift_local_variables(copy, len, r))
            return classfile_fail(err,
                "malformed LocalVariable(Type)Table (a range outside the code, or a bad length)");
        if (kind == ATTR_TYPE_ANNOTATIONS && !classfile_type_annotations_shift(copy, len, r)) {
            out->len = start;  /* ignored by the JVM at this level: not understood, so left out */
            *dropped = true;
            return true;
        }
    }
    if (out->failed) return classfile_fail(err, "out of memory");
    classfile_put4(out->data + len_at, (uint32_t)(out->len - body_at));
    return true;
}

/* The bytes of one call: sipush id; invokestatic #ref; then 'tail' (two nops, or athrow). */
static void put_trace_call(uint8_t *at, int id, uint16_t ref) {
    at[0] = OP_SIPUSH;
    classfile_put2(at + 1, (uint32_t)id);
    at[3] = OP_INVOKESTATIC;
    classfile_put2(at + 4, ref);
    at[6] = at[7] = OP_NOP;
}

/* A StackMapTable of the handler's frame alone, for a traced method that had none. */
static void put_new_stack_map(classfile_buf *out, uint16_t name, uint32_t handler, uint16_t throwable) {
    classfile_buf_put2(out, name);
    classfile_buf_put4(out, 2 + 10);  /* the count, then a full frame of one stack item */
    classfile_buf_put2(out, 1);
    put_handler_frame(out, -1, handler, throwable);
}

/* The parts of one Code attribute, as read. */
typedef struct {
    uint16_t max_stack, max_locals, handlers;
    const uint8_t *code, *table;
} code_parts;

/* The Code attribute's new contents after its length, by the relocation 'r'; 'c' is past the exception
 * table. */
static bool write_code(const classfile_pool *pool, const uint8_t *body, uint32_t body_len, classfile_cursor *c,
                       const code_parts *p, const classfile_reloc *r, const classfile_probe *probe,
                       classfile_buf *out, classfile_err *err) {
    bool tracing = probe->trace_id >= 0, handler = tracing && probe->throwable_class;
    uint32_t code_len = r->code_len, body_end = classfile_reloc_map(r, code_len);
    uint64_t new_len = (uint64_t)body_end + (handler ? CLASSFILE_TRACE_HANDLER_LEN : 0);
    if (new_len > 65535)
        return classfile_fail(err, "code too long: %u bytes + %llu for the helper call%s > 65535", code_len,
                              (unsigned long long)(new_len - code_len), tracing ? "s" : "");
    /* A ()V static call pushes nothing and needs no local; the tracing calls push their id over whatever
     * the method returns, and the handler holds the exception and the id. */
    uint32_t stack = tracing ? p->max_stack + 1u : p->max_stack;
    if (tracing && stack < 2) stack = 2;
    if (stack > 65535) return classfile_fail(err, "max_stack %u leaves no room for the helper call", p->max_stack);
    classfile_buf_put2(out, stack);
    classfile_buf_put2(out, p->max_locals);
    classfile_buf_put4(out, (uint32_t)new_len);
    if (tracing) {
        uint8_t seq[8];
        put_trace_call(seq, probe->trace_id, probe->enter_ref);
        classfile_buf_put(out, seq, CLASSFILE_TRACE_PROLOGUE_LEN);
        put_trace_call(seq, probe->trace_id, probe->exit_ref);
        if (!classfile_code_copy(p->code, r, seq, out, err)) return false;
        seq[6] = OP_ATHROW;
        if (handler) classfile_buf_put(out, seq, CLASSFILE_TRACE_HANDLER_LEN);
    } else {
        classfile_buf_put1(out, OP_INVOKESTATIC);
        classfile_buf_put2(out, probe->enter_ref);
        classfile_buf_put1(out, OP_NOP);
        classfile_buf_put(out, p->code, code_len);
    }
    if (handler && p->handlers == 65535) return classfile_fail(err, "exception table full");
    classfile_buf_put2(out, p->handlers + (handler ? 1u : 0u));
    for (uint32_t i = 0; i < p->handlers; i++) {
        const uint8_t *h = p->table + i * 8;
        uint32_t from = classfile_u2(h), to = classfile_u2(h + 2), at = classfile_u2(h + 4);
        if (from >= to || to > code_len || at >= code_len)
            return classfile_fail(err, "exception table entry %u [%u, %u) -> %u outside the code (%u bytes)", i,
                                  from, to, at, code_len);
        classfile_buf_put2(out, classfile_reloc_map(r, from));
        classfile_buf_put2(out, classfile_reloc_map(r, to));
        classfile_buf_put2(out, classfile_reloc_map(r, at));
        classfile_buf_put(out, h + 6, 2);  /* catch_type */
    }
    if (handler) {  /* last: the method's own handlers come first */
        classfile_buf_put2(out, r->prologue);
        classfile_buf_put2(out, body_end);
        classfile_buf_put2(out, body_end);
        classfile_buf_put2(out, 0);  /* any exception */
    }

    uint16_t attrs;
    if (!classfile_read2(c, &attrs)) return classfile_fail(err, "truncated Code attribute (attributes count)");
    size_t count_at = out->len;
    classfile_buf_put2(out, 0);
    uint32_t kept = 0;
    bool has_stack_map = false;
    for (uint32_t i = 0; i < attrs; i++) {
        uint16_t name;
        uint32_t len;
        if (!classfile_read2(c, &name) || !classfile_read4(c, &len) || !classfile_has(c, len))
            return classfile_fail(err, "truncated Code attribute (attribute %u of %u)", i, attrs);
        has_stack_map = has_stack_map || classfile_pool_utf8_is(pool, name, "StackMapTable");
        bool dropped;
        if (!rewrite_sub_attribute(pool, name, body + c->pos, len, r, handler ? body_end : 0, probe->throwable_class,
                                   out, &dropped, err))
            return false;
        c->pos += len;
        if (!dropped) kept++;
    }
    if (handler && !has_stack_map && probe->stack_map_name) {
        put_new_stack_map(out, probe->stack_map_name, body_end, probe->throwable_class);
        kept++;
    }
    if (c->pos != body_len)
        return classfile_fail(err, "Code attribute has %zu bytes after its last sub-attribute", body_len - c->pos);
    if (out->failed) return classfile_fail(err, "out of memory");
    classfile_put2(out->data + count_at, kept);
    return true;
}

bool classfile_code_rewrite(const classfile_pool *pool, uint16_t name_index, const uint8_t *body, uint32_t body_len,
                     const classfile_probe *probe, classfile_buf *out, classfile_err *err) {
    classfile_cursor c = {body, body_len, 0};
    code_parts p;
    uint32_t code_len;
    if (!classfile_read2(&c, &p.max_stack) || !classfile_read2(&c, &p.max_locals) || !classfile_read4(&c, &code_len))
        return classfile_fail(err, "truncated Code attribute");
    if (code_len == 0) return classfile_fail(err, "empty code (code_length 0)");
    p.code = body + c.pos;
    if (!classfile_skip(&c, code_len) || !classfile_read2(&c, &p.handlers) ||
        !classfile_has(&c, (size_t)p.handlers * 8))
        return classfile_fail(err, "truncated Code attribute (code or exception table)");
    if (!classfile_code_check(p.code, code_len, err)) return false;
    p.table = body + c.pos;
    c.pos += (size_t)p.handlers * 8;

    bool tracing = probe->trace_id >= 0;
    classfile_reloc r = {.code_len = code_len,
                         .prologue = tracing ? CLASSFILE_TRACE_PROLOGUE_LEN : CLASSFILE_PROLOGUE_LEN};
    uint32_t *returns = NULL;
    if (tracing) {
        bool failed;
        returns = classfile_code_returns(p.code, code_len, &r.return_count, &failed);
        if (failed) return classfile_fail(err, "out of memory");
        r.returns = returns;
        r.exit_len = CLASSFILE_TRACE_EXIT_LEN;
    }
    size_t start = out->len;
    classfile_buf_put2(out, name_index);
    classfile_buf_put4(out, 0);  /* length, known at the end */
    bool ok = write_code(pool, body, body_len, &c, &p, &r, probe, out, err);
    free(returns);
    if (!ok) return false;
    uint64_t n = out->len - start - 6;
    if (n > UINT32_MAX) return classfile_fail(err, "Code attribute too long");
    classfile_put4(out->data + start + 2, (uint32_t)n);
    return true;
}
