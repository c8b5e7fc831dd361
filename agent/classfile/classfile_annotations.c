/*
 * classfile_annotations: moves the code offsets inside the type annotations a Code attribute may carry
 * (Runtime(In)VisibleTypeAnnotations with localvar, resource, instanceof/new/method-reference offsets,
 * casts and type arguments: JVMS 4.7.20). HotSpot ignores these attributes at the Code level, but tools
 * reading the rewritten bytes (other agents, debuggers, checkers) must still find each annotation on the
 * instruction it was written for, so they are remapped like the LocalVariableTable, not dropped.
 * Used by classfile_codeattr.c only.
 */
#include "classfile_parts.h"

/* Nesting limit for annotation values: real ones are a few levels deep; hostile input must not recurse
 * the stack away. */
#define MAX_DEPTH 32

static bool skip_annotation(classfile_cursor *c, int depth);

static bool skip_element_value(classfile_cursor *c, int depth) {
    if (depth > MAX_DEPTH || !classfile_has(c, 1)) return false;
    uint8_t tag = c->data[c->pos++];
    switch (tag) {
    case 'B': case 'C': case 'D': case 'F': case 'I': case 'J': case 'S': case 'Z': case 's': case 'c':
        return classfile_skip(c, 2);
    case 'e':
        return classfile_skip(c, 4);
    case '@':
        return skip_annotation(c, depth + 1);
    case '[': {
        uint16_t n;
        if (!classfile_read2(c, &n)) return false;
        for (uint32_t i = 0; i < n; i++)
            if (!skip_element_value(c, depth + 1)) return false;
        return true;
    }
    default:
        return false;
    }
}

/* type_index (or type), then element_value_pairs. */
static bool skip_annotation(classfile_cursor *c, int depth) {
    uint16_t pairs;
    if (!classfile_skip(c, 2) || !classfile_read2(c, &pairs)) return false;
    for (uint32_t i = 0; i < pairs; i++)
        if (!classfile_skip(c, 2) || !skip_element_value(c, depth)) return false;
    return true;
}

/* Moves the u2 code offset at body[pos] (it must name a byte of the code). */
static bool shift_offset(uint8_t *body, size_t pos, const classfile_reloc *r) {
    uint32_t offset = classfile_u2(body + pos);
    if (offset >= r->code_len) return false;
    classfile_put2(body + pos, classfile_reloc_map(r, offset));
    return true;
}

bool classfile_type_annotations_shift(uint8_t *body, uint32_t len, const classfile_reloc *r) {
    uint32_t code_len = r->code_len;
    classfile_cursor c = {body, len, 0};
    uint16_t count;
    if (!classfile_read2(&c, &count)) return false;
    for (uint32_t i = 0; i < count; i++) {
        if (!classfile_has(&c, 1)) return false;
        uint8_t target = body[c.pos++];
        if (target == 0x40 || target == 0x41) {  /* localvar_target: ranges like LocalVariableTable's */
            uint16_t n;
            if (!classfile_read2(&c, &n) || !classfile_has(&c, (size_t)n * 6)) return false;
            for (uint32_t k = 0; k < n; k++, c.pos += 6) {
                uint32_t start = classfile_u2(body + c.pos), length = classfile_u2(body + c.pos + 2);
                if (start + length > code_len) return false;
                /* live from the method start: it stays so, and its range grows */
                uint32_t from = start == 0 ? 0 : classfile_reloc_map(r, start);
                classfile_put2(body + c.pos, from);
                classfile_put2(body + c.pos + 2, classfile_reloc_map(r, start + length) - from);
            }
        } else if (target == 0x42) {  /* catch_target: an exception table index, no offset */
            if (!classfile_skip(&c, 2)) return false;
        } else if (target >= 0x43 && target <= 0x4b) {  /* offset_target, type_argument_target */
            if (!classfile_has(&c, 2) || !shift_offset(body, c.pos, r)) return false;
            c.pos += target >= 0x47 ? 3 : 2;
            if (c.pos > len) return false;
        } else {
            return false;  /* not a target that may appear in a Code attribute */
        }
        if (!classfile_has(&c, 1)) return false;
        uint8_t path = body[c.pos++];
        if (!classfile_skip(&c, (size_t)path * 2) || !skip_annotation(&c, 0)) return false;
    }
    return c.pos == len;
}
