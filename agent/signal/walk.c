/*
 * [signal-safe] walk: the native walkers (walk.h) and the helpers they share with walk_vm.
 *
 * Frame pointers: follows the chain of frame records ({saved frame pointer, return address} at the frame
 * pointer: rbp on x86_64, x29 on aarch64). Each frame's saved frame pointer must lie above the previous one on the
 * stack, so a garbage chain (code built without frame pointers) ends the walk instead of looping or
 * wandering; every read goes through safe_read. A pc outside any code ends the walk without being recorded.
 *
 * DWARF: each frame is stepped with the unwind row its object's .eh_frame gives for the pc (exact in code
 * built without frame pointers: Debian's libz, much of glibc and libjvm); where no row describes the pc
 * (JIT stubs, libraries loaded since the last refresh, rules the tables do not follow) the frame pointer
 * takes over for that one frame. A row that marks the outermost frame ends the walk at the thread's root.
 * Each step looks its pc up in the native map once (through its cache of recent pcs: native_map_row).
 */
#include "walk.h"

#include "arch.h"
#include "codeheap.h"
#include "native_map.h"
#include "safe_read.h"

#include <stdatomic.h>

/* Sanity bound on one frame's size: larger jumps mean the register is not a frame pointer. */
#define MAX_FRAME_BYTES (1 << 20)

static _Atomic bool unknown_code_seen;

bool walk_take_unknown_code_flag(void) {
    return atomic_exchange_explicit(&unknown_code_seen, false, memory_order_relaxed);
}

bool walk_fp_step(uintptr_t *pc, uintptr_t *sp, uintptr_t *fp) {
    uintptr_t saved_fp, ret;
    if (*fp < *sp || *fp - *sp > MAX_FRAME_BYTES || !safe_read_word(*fp, &saved_fp) ||
        !safe_read_word(*fp + sizeof(uintptr_t), &ret))
        return false;
    *sp = *fp + 2 * sizeof(uintptr_t);
    *pc = arch_code_address(ret);
    *fp = saved_fp;
    return true;
}

bool walk_dwarf_step(uintptr_t *pc, uintptr_t *sp, uintptr_t *fp, bool leaf) {
    uintptr_t at = leaf ? *pc : *pc - 1;   /* a return address: its call instruction's row */
    unwind_row row;
    native_row_found found = native_map_row(at, &row);
    if (found == NATIVE_ROW && row.cfa_reg == UNWIND_END) return false;
    if (found == NATIVE_ROW && dwarf_step(&row, pc, sp, fp, safe_read_word)) return true;
    if (found == NATIVE_NO_OBJECT) atomic_store_explicit(&unknown_code_seen, true, memory_order_relaxed);
    return walk_fp_step(pc, sp, fp);
}

bool walk_dwarf_leaf_step(uintptr_t *pc, uintptr_t *sp, uintptr_t *fp, uintptr_t lr) {
    unwind_row row;
    if (lr && native_map_row(*pc, &row) == NATIVE_ROW && dwarf_step_leaf(&row, pc, sp, fp, lr, safe_read_word))
        return true;
    return walk_dwarf_step(pc, sp, fp, true);
}

bool walk_record(uintptr_t pc, bool leaf, trace_frame *out, int max, int *n, walk_end *end) {
    if (pc < 4096) return false;
    if (codeheap_contains(pc)) {
        *end = WALK_REACHED_JAVA;
        return false;
    }
    if (*n == max) {
        *end = WALK_TOO_DEEP;
        return false;
    }
    out[(*n)++] = (trace_frame){leaf ? pc : pc - 1, 0, FRAME_NATIVE};
    return true;
}

/* aarch64: a leaf that has not saved lr in a frame record yet (a function that calls nothing has none, and
 * x29 is still its caller's) returns to lr; where the unwind tables say so, the FP walk's next frame is lr's,
 * with x29 unchanged. Without a table the frame chain alone is followed. */
static bool leaf_returns_to_lr(uintptr_t pc, uintptr_t lr) {
    unwind_row row;
    return lr && native_map_row(pc, &row) == NATIVE_ROW && row.ra_slot == UNWIND_RA_IN_LR;
}

int walk_fp(walk_regs regs, trace_frame *out, int max, walk_end *end) {
    uintptr_t pc = regs.pc, fp = regs.fp, sp = regs.sp;
    int n = 0;
    *end = WALK_ROOT;
    for (bool leaf = true; walk_record(pc, leaf, out, max, &n, end); leaf = false) {
        if (leaf && leaf_returns_to_lr(pc, regs.lr)) {
            pc = regs.lr;
            continue;
        }
        if (!walk_fp_step(&pc, &sp, &fp)) break;
    }
    return n;
}

int walk_dwarf(walk_regs regs, trace_frame *out, int max, walk_end *end) {
    uintptr_t pc = regs.pc, fp = regs.fp, sp = regs.sp;
    int n = 0;
    *end = WALK_ROOT;
    for (bool leaf = true; walk_record(pc, leaf, out, max, &n, end); leaf = false) {
        if (!(leaf ? walk_dwarf_leaf_step(&pc, &sp, &fp, regs.lr) : walk_dwarf_step(&pc, &sp, &fp, false))) break;
    }
    return n;
}
