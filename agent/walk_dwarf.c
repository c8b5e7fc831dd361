/* Runs in signal handlers: async-signal-safe code only. */
/*
 * walk_dwarf: each frame is stepped with the unwind row its object's .eh_frame gives for the pc (exact in
 * code built without frame pointers: Debian's libz, much of glibc and libjvm); where no row describes the
 * pc (JIT stubs, libraries loaded since the last refresh, rules the tables do not follow) the frame pointer
 * takes over for that one frame. A row that marks the outermost frame ends the walk at the thread's root.
 */
#include "walk.h"

#include "native_map.h"
#include "safe_read.h"

#include <stdatomic.h>

static _Atomic bool unknown_code_seen;

bool walk_take_unknown_code_flag(void) {
    return atomic_exchange_explicit(&unknown_code_seen, false, memory_order_relaxed);
}

bool walk_dwarf_step(uintptr_t *pc, uintptr_t *sp, uintptr_t *fp, bool leaf) {
    const unwind_row *row = native_map_unwind(leaf ? *pc : *pc - 1);
    if (row && row->cfa_reg == UNWIND_END) return false;
    if (native_map_step(pc, sp, fp, leaf, safe_read_word)) return true;
    if (!row && !native_map_contains(*pc)) atomic_store_explicit(&unknown_code_seen, true, memory_order_relaxed);
    return walk_fp_step(pc, sp, fp);
}

int walk_dwarf(walk_regs regs, trace_frame *out, int max, walk_end *end) {
    uintptr_t pc = regs.pc, fp = regs.fp, sp = regs.sp;
    int n = 0;
    *end = WALK_ROOT;
    for (bool leaf = true; walk_record(pc, leaf, out, max, &n, end); leaf = false) {
        if (!walk_dwarf_step(&pc, &sp, &fp, leaf)) break;
    }
    return n;
}
