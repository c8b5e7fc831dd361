/* [signal-safe] a64_code: HotSpot's aarch64 prologues, epilogues and calls, read from the code (a64_code.h). */
#include "a64_code.h"

#include "code_bytes.h"

#define INSN 4u
#define PROLOGUE_MAX_INSNS 128u
#define EPILOGUE_BACK 8u
#define EPILOGUE_AHEAD 12u

#define SP 31u

static bool insn_at(uintptr_t at, uint32_t *insn) {
    uint8_t c[INSN];
    if (!code_bytes_read(at, c, INSN)) return false;
    *insn = (uint32_t)c[0] | (uint32_t)c[1] << 8 | (uint32_t)c[2] << 16 | (uint32_t)c[3] << 24;
    return true;
}

static bool is_bl(uint32_t i) { return (i & 0xFC000000u) == 0x94000000u; }
static bool is_blr(uint32_t i) { return (i & 0xFFFFFC1Fu) == 0xD63F0000u; }
static bool is_ret(uint32_t i) { return (i & 0xFFFFFC1Fu) == 0xD65F0000u; }
static bool is_b(uint32_t i) { return (i & 0xFC000000u) == 0x14000000u; }
static bool is_br(uint32_t i) { return (i & 0xFFFFFC1Fu) == 0xD61F0000u; }

/* add/sub (immediate), 64-bit, not setting flags, with Rd = sp: the amount (shifted) and whether it subtracts. */
static bool sp_immediate(uint32_t i, bool *sub, unsigned *rn, uintptr_t *amount) {
    if ((i & 0xBF800000u) != 0x91000000u || (i & 0x1Fu) != SP) return false;   /* sf=1, S=0, add/sub imm */
    *sub = (i >> 30) & 1u;
    *rn = (i >> 5) & 0x1Fu;
    *amount = (uintptr_t)((i >> 10) & 0xFFFu) << ((i >> 22) & 1u ? 12 : 0);
    return true;
}

/* A pre- or post-indexed load/store pair with base sp (writes sp back). */
static bool pair_writes_sp(uint32_t i) {
    unsigned mode = (i >> 23) & 7u;   /* 001 post-index, 011 pre-index (bits 25..23 of the pair class) */
    return (i & 0x3A000000u) == 0x28000000u && (mode == 1u || mode == 3u) && ((i >> 5) & 0x1Fu) == SP;
}

/* add/sub (extended register) with Rd = sp: `sub sp, sp, xN` for frames too large for an immediate. */
static bool sp_register(uint32_t i) {
    return (i & 0x1FE00000u) == 0x0B200000u && !((i >> 29) & 1u) && (i & 0x1Fu) == SP;
}

bool a64_after_call(uintptr_t ret) {
    uint32_t i;
    return insn_at(ret - INSN, &i) && (is_bl(i) || is_blr(i));
}

#define STP_FP_LR_PRE16 0xA9BF7BFDu   /* stp x29, x30, [sp, #-16]! */

bool a64_prologue_sp_delta(uintptr_t begin, uintptr_t pc, uintptr_t *delta) {
    if (pc < begin || (pc - begin) % INSN || (pc - begin) / INSN > PROLOGUE_MAX_INSNS) return false;
    uintptr_t d = 0;
    for (uintptr_t at = begin; at < pc; at += INSN) {
        uint32_t i;
        bool sub;
        unsigned rn;
        uintptr_t amount;
        if (!insn_at(at, &i)) return false;
        if (i == STP_FP_LR_PRE16) d += 16;
        else if (sp_immediate(i, &sub, &rn, &amount)) {
            if (!sub || rn != SP) return false;
            d += amount;
        } else if (pair_writes_sp(i) || sp_register(i)) {
            return false;
        }
    }
    *delta = d;
    return true;
}

#define LDP_FP_LR_POST16 0xA8C17BFDu   /* ldp x29, x30, [sp], #16 */

/* ldp x29, x30, [sp, #off] (signed offset): off in bytes. */
static bool ldp_fp_lr_offset(uint32_t i, uintptr_t *off) {
    if ((i & 0xFFC07FFFu) != 0xA9407BFDu) return false;
    int32_t imm7 = (int32_t)((i >> 15) & 0x7Fu);
    if (imm7 & 0x40) imm7 -= 0x80;
    if (imm7 < 0) return false;
    *off = (uintptr_t)imm7 * 8u;
    return true;
}

/* True when a `ret` follows pc within EPILOGUE_AHEAD instructions with no call or jump before it (the return
 * poll's conditional branch to its stub is allowed). */
static bool returns_soon(uintptr_t pc) {
    for (unsigned k = 0; k < EPILOGUE_AHEAD; k++) {
        uint32_t i;
        if (!insn_at(pc + k * INSN, &i)) return false;
        if (is_ret(i)) return true;
        if (is_bl(i) || is_blr(i) || is_b(i) || is_br(i) || i == STP_FP_LR_PRE16) return false;
    }
    return false;
}

a64_epilogue a64_epilogue_at(uintptr_t pc, uintptr_t frame_bytes, uintptr_t *sp_to_caller) {
    uint32_t i;
    if (!insn_at(pc, &i)) return A64_EPILOGUE_NONE;
    if (i == LDP_FP_LR_POST16) return returns_soon(pc + INSN) ? A64_EPILOGUE_AT_LDP : A64_EPILOGUE_NONE;
    /* Back from pc to the restore of x29 and lr, through straight-line code only. */
    bool sp_moved = false;
    for (unsigned k = 1; k <= EPILOGUE_BACK; k++) {
        uintptr_t off;
        bool sub;
        unsigned rn;
        uintptr_t amount;
        if (!insn_at(pc - k * INSN, &i)) return A64_EPILOGUE_NONE;
        if (i == LDP_FP_LR_POST16) {
            if (!returns_soon(pc)) return A64_EPILOGUE_NONE;
            *sp_to_caller = 0;
            return A64_EPILOGUE_RESTORED;
        }
        if (ldp_fp_lr_offset(i, &off)) {
            if (!returns_soon(pc) || (frame_bytes && off + 16 > frame_bytes)) return A64_EPILOGUE_NONE;
            *sp_to_caller = sp_moved ? 0 : off + 16;
            return A64_EPILOGUE_RESTORED;
        }
        if (sp_immediate(i, &sub, &rn, &amount)) {
            if (sub || rn != SP) return A64_EPILOGUE_NONE;
            sp_moved = true;   /* `add sp, sp, #size` after the restore */
            continue;
        }
        if (is_ret(i) || is_bl(i) || is_blr(i) || is_b(i) || is_br(i) || pair_writes_sp(i) || sp_register(i))
            return A64_EPILOGUE_NONE;
    }
    return A64_EPILOGUE_NONE;
}
