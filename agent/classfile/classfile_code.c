/*
 * classfile_code: the bytecode walk. Decodes every instruction format of JVMS 6.5 (fixed lengths, wide,
 * tableswitch/lookupswitch with their 0-3 alignment bytes, 16- and 32-bit branches, jsr/ret) to check
 * that a method's code is what we think it is before we shift it: a method with an unknown opcode, a
 * truncated instruction, or a branch into the middle of an instruction is refused, not rewritten.
 *
 * The rewrite itself never edits an instruction: the prologue is 4 bytes long (see classfile.c), so every
 * relative branch keeps its distance and every switch keeps its padding. Used by classfile*.c only.
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

/* Length of the instruction at pc (switches and wide included), 0 when undefined or truncated. */
static uint32_t instruction_length(const uint8_t *code, uint32_t len, uint32_t pc) {
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
        uint32_t n = instruction_length(code, len, pc);
        if (n == 0) {
            ok = classfile_fail(err, "undefined or truncated instruction (opcode 0x%02x) at code offset %u of %u",
                         code[pc], pc, len);
            break;
        }
        starts[pc >> 3] |= (uint8_t)(1u << (pc & 7));
        pc += n;
    }
    for (uint32_t pc = 0; pc < len && ok; pc += instruction_length(code, len, pc)) {
        int64_t target = 0;
        if (!targets_ok(code, len, pc, starts, &target))
            ok = classfile_fail(err, "branch at code offset %u goes to %lld, not the start of an instruction",
                         pc, (long long)target);
    }
    free(starts);
    return ok;
}
