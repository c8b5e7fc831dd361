/*
 * classfile_code: the bytecode walk. Decodes every instruction format of JVMS 6.5 (fixed lengths, wide,
 * tableswitch/lookupswitch with their 0-3 alignment bytes, 16- and 32-bit branches, jsr/ret) to check
 * that a method's code is what we think it is before we shift it: a method with an unknown opcode, a
 * truncated instruction, or a branch into the middle of an instruction is refused, not rewritten.
 *
 * The sampling rewrite never edits an instruction: the prologue is 4 bytes long (see classfile.c), so every
 * relative branch keeps its distance and every switch keeps its padding. The tracing rewrite also puts an
 * exit call before every return: branches are then moved by the relocation (classfile_code_copy), switches
 * still keep their padding (every insertion is a multiple of 4), and a 16-bit branch that would no longer
 * reach refuses the class. Used by classfile*.c only.
 */
#include <stdlib.h>

#include "classfile_parts.h"

enum {
    OP_BIPUSH = 0x10, OP_SIPUSH = 0x11, OP_LDC = 0x12, OP_LDC_W = 0x13, OP_LDC2_W = 0x14, OP_ILOAD = 0x15,
    OP_ALOAD = 0x19, OP_ISTORE = 0x36, OP_ASTORE = 0x3a, OP_IINC = 0x84, OP_IFEQ = 0x99, OP_JSR = 0xa8,
    OP_RET = 0xa9, OP_TABLESWITCH = 0xaa, OP_LOOKUPSWITCH = 0xab, OP_IRETURN = 0xac, OP_RETURN = 0xb1,
    OP_GETSTATIC = 0xb2, OP_INVOKESTATIC = 0xb8, OP_INVOKEINTERFACE = 0xb9, OP_INVOKEDYNAMIC = 0xba,
    OP_NEW = 0xbb, OP_NEWARRAY = 0xbc, OP_ANEWARRAY = 0xbd, OP_MONITOREXIT = 0xc3, OP_WIDE = 0xc4,
    OP_MULTIANEWARRAY = 0xc5, OP_IFNULL = 0xc6, OP_IFNONNULL = 0xc7, OP_GOTO_W = 0xc8, OP_JSR_W = 0xc9,
};

/* Length of a fixed-size instruction, 0 for variable-size (switches, wide) and undefined opcodes. */
static int fixed_length(uint8_t op) {
    if (op < OP_BIPUSH) return 1;                                     /* nop .. dconst_1 */
    if (op == OP_BIPUSH || op == OP_LDC || op == OP_NEWARRAY || op == OP_RET) return 2;
    if (op == OP_SIPUSH || op == OP_LDC_W || op == OP_LDC2_W || op == OP_IINC) return 3;
    if (op >= OP_ILOAD && op <= OP_ALOAD) return 2;                   /* loads with an index */
    if (op >= OP_ISTORE && op <= OP_ASTORE) return 2;                 /* stores with an index */
    if (op > OP_ALOAD && op < OP_ISTORE) return 1;                    /* iload_0 .. saload */
    if (op > OP_ASTORE && op < OP_IFEQ) return 1;                     /* istore_0 .. lcmp etc. */
    if (op >= OP_IFEQ && op <= OP_JSR) return 3;                      /* if*, goto, jsr */
    if (op >= OP_IRETURN && op <= OP_RETURN) return 1;
    if (op >= OP_GETSTATIC && op <= OP_INVOKESTATIC) return 3;        /* fields, invokevirtual..static */
    if (op == OP_INVOKEINTERFACE || op == OP_INVOKEDYNAMIC) return 5;
    if (op == OP_NEW || op == OP_ANEWARRAY || op == 0xc0 || op == 0xc1) return 3;  /* checkcast, instanceof */
    if (op >= 0xbe && op <= OP_MONITOREXIT) return 1;                 /* arraylength athrow monitor* */
    if (op == OP_MULTIANEWARRAY) return 4;
    if (op == OP_IFNULL || op == OP_IFNONNULL) return 3;
    if (op == OP_GOTO_W || op == OP_JSR_W) return 5;
    return 0;
}

static bool is_branch16(uint8_t op) {
    return (op >= OP_IFEQ && op <= OP_JSR) || op == OP_IFNULL || op == OP_IFNONNULL;
}

/* Instruction starts, one bit per code byte. */
static bool is_start(const uint8_t *starts, int64_t pc, uint32_t len) {
    return pc >= 0 && pc < (int64_t)len && (starts[pc >> 3] >> (pc & 7) & 1);
}

uint32_t classfile_instruction_length(const uint8_t *code, uint32_t len, uint32_t pc) {
    uint8_t op = code[pc];
    uint32_t n = (uint32_t)fixed_length(op);
    if (op == OP_WIDE) {
        if (len - pc < 2) return 0;
        uint8_t op2 = code[pc + 1];
        if ((op2 >= OP_ILOAD && op2 <= OP_ALOAD) || (op2 >= OP_ISTORE && op2 <= OP_ASTORE) || op2 == OP_RET) n = 4;
        else if (op2 == OP_IINC) n = 6;
        else return 0;
    } else if (op == OP_TABLESWITCH || op == OP_LOOKUPSWITCH) {
        uint32_t base = (pc + 4) & ~3u;  /* default, after 0-3 bytes aligning it to a multiple of 4 */
        uint32_t head = op == OP_TABLESWITCH ? 12 : 8;  /* default, low, high / default, npairs */
        if (base > len || len - base < head) return 0;
        if (op == OP_TABLESWITCH) {
            int32_t low = (int32_t)classfile_u4(code + base + 4), high = (int32_t)classfile_u4(code + base + 8);
            if (high < low) return 0;
            uint64_t entries = (uint64_t)((int64_t)high - low + 1);
            if (entries > (len - base - 12) / 4) return 0;
            n = base + 12 + (uint32_t)entries * 4 - pc;
        } else {
            uint32_t pairs = classfile_u4(code + base + 4);
            if (pairs > (len - base - 8) / 8) return 0;
            n = base + 8 + pairs * 8 - pc;
        }
    }
    if (n == 0 || n > len - pc) return 0;
    return n;
}

/* Every branch target of the instruction at pc, checked against the instruction starts. */
static bool targets_ok(const uint8_t *code, uint32_t len, uint32_t pc, const uint8_t *starts, int64_t *bad) {
    uint8_t op = code[pc];
    if (is_branch16(op)) {
        *bad = pc + (int16_t)classfile_u2(code + pc + 1);
        return is_start(starts, *bad, len);
    }
    if (op == OP_GOTO_W || op == OP_JSR_W) {
        *bad = pc + (int64_t)(int32_t)classfile_u4(code + pc + 1);
        return is_start(starts, *bad, len);
    }
    if (op != OP_TABLESWITCH && op != OP_LOOKUPSWITCH) return true;
    uint32_t base = (pc + 4) & ~3u;
    uint32_t first, n, stride;
    if (op == OP_TABLESWITCH) {
        first = base + 12;
        n = (uint32_t)((int64_t)(int32_t)classfile_u4(code + base + 8) - (int32_t)classfile_u4(code + base + 4) + 1);
        stride = 4;
    } else {
        first = base + 12;  /* the offset of the first pair (match, offset) */
        n = classfile_u4(code + base + 4);
        stride = 8;
    }
    *bad = pc + (int64_t)(int32_t)classfile_u4(code + base);
    if (!is_start(starts, *bad, len)) return false;
    for (uint32_t i = 0; i < n; i++) {
        *bad = pc + (int64_t)(int32_t)classfile_u4(code + first + i * stride);
        if (!is_start(starts, *bad, len)) return false;
    }
    return true;
}

bool classfile_code_check(const uint8_t *code, uint32_t len, classfile_err *err) {
    uint8_t *starts = calloc(len / 8 + 1, 1);
    if (!starts) return classfile_fail(err, "out of memory checking %u bytes of code", len);
    bool ok = true;
    for (uint32_t pc = 0; pc < len && ok;) {
        uint32_t n = classfile_instruction_length(code, len, pc);
        if (n == 0) {
            ok = classfile_fail(err, "undefined or truncated instruction (opcode 0x%02x) at code offset %u of %u",
                         code[pc], pc, len);
            break;
        }
        starts[pc >> 3] |= (uint8_t)(1u << (pc & 7));
        pc += n;
    }
    for (uint32_t pc = 0; pc < len && ok; pc += classfile_instruction_length(code, len, pc)) {
        int64_t target = 0;
        if (!targets_ok(code, len, pc, starts, &target))
            ok = classfile_fail(err, "branch at code offset %u goes to %lld, not the start of an instruction",
                         pc, (long long)target);
    }
    free(starts);
    return ok;
}

static bool is_return(uint8_t op) {
    return op >= OP_IRETURN && op <= OP_RETURN;
}

uint32_t classfile_reloc_map(const classfile_reloc *r, uint32_t pc) {
    /* returns strictly before pc: a binary search over the ascending offsets */
    uint32_t lo = 0, hi = r->return_count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (r->returns[mid] < pc) lo = mid + 1;
        else hi = mid;
    }
    return pc + r->prologue + r->exit_len * lo;
}

uint32_t *classfile_code_returns(const uint8_t *code, uint32_t len, uint32_t *n, bool *failed) {
    *n = 0;
    *failed = false;
    for (uint32_t pc = 0; pc < len; pc += classfile_instruction_length(code, len, pc)) *n += is_return(code[pc]);
    if (*n == 0) return NULL;
    uint32_t *out = malloc(*n * sizeof(uint32_t)), k = 0;
    if (!out) {
        *failed = true;
        return NULL;
    }
    for (uint32_t pc = 0; pc < len; pc += classfile_instruction_length(code, len, pc))
        if (is_return(code[pc])) out[k++] = pc;
    return out;
}

/* Rewrites the branch offset of 'width' bytes at 'at' (in the copy) of the instruction at old pc: the
 * distance between the relocated instruction and its relocated target. */
static bool move_offset(uint8_t *at, int width, const classfile_reloc *r, uint32_t pc, int64_t old_delta,
                        classfile_err *err) {
    int64_t delta = (int64_t)classfile_reloc_map(r, (uint32_t)(pc + old_delta)) - classfile_reloc_map(r, pc);
    if (width == 2) {
        if (delta < INT16_MIN || delta > INT16_MAX)
            return classfile_fail(err, "the branch at code offset %u would need %lld bytes, more than a 16-bit "
                                  "branch reaches", pc, (long long)delta);
        classfile_put2(at, (uint32_t)(uint16_t)(int16_t)delta);
    } else {
        classfile_put4(at, (uint32_t)(int32_t)delta);
    }
    return true;
}

bool classfile_code_copy(const uint8_t *code, const classfile_reloc *r, const uint8_t *exit, classfile_buf *out,
                         classfile_err *err) {
    uint32_t len = r->code_len;
    for (uint32_t pc = 0; pc < len;) {
        uint32_t n = classfile_instruction_length(code, len, pc);
        uint8_t op = code[pc];
        if (is_return(op) && r->exit_len) classfile_buf_put(out, exit, r->exit_len);
        size_t at = out->len;
        classfile_buf_put(out, code + pc, n);
        if (out->failed) return classfile_fail(err, "out of memory");
        uint8_t *copy = out->data + at;
        bool ok = true;
        if (is_branch16(op)) {
            ok = move_offset(copy + 1, 2, r, pc, (int16_t)classfile_u2(code + pc + 1), err);
        } else if (op == OP_GOTO_W || op == OP_JSR_W) {
            ok = move_offset(copy + 1, 4, r, pc, (int32_t)classfile_u4(code + pc + 1), err);
        } else if (op == OP_TABLESWITCH || op == OP_LOOKUPSWITCH) {
            /* the same padding in the copy: its offset is the original's modulo 4 */
            uint32_t base = ((pc + 4) & ~3u) - pc;
            uint32_t first = base + 12, count, stride;
            if (op == OP_TABLESWITCH) {
                count = (uint32_t)((int64_t)(int32_t)classfile_u4(code + pc + base + 8) -
                                   (int32_t)classfile_u4(code + pc + base + 4) + 1);
                stride = 4;
            } else {
                count = classfile_u4(code + pc + base + 4);
                first = base + 12;
                stride = 8;
            }
            ok = move_offset(copy + base, 4, r, pc, (int32_t)classfile_u4(code + pc + base), err);
            for (uint32_t i = 0; ok && i < count; i++)
                ok = move_offset(copy + first + i * stride, 4, r, pc,
                                 (int32_t)classfile_u4(code + pc + first + i * stride), err);
        }
        if (!ok) return false;
        pc += n;
    }
    return true;
}
