/*
 * [signal-safe] dwarf_step: the signal-path half of dwarf.h. A binary search over an immutable table (within one
 * page of its page index when it has one) and a few reads through the caller's safe reader: no allocation, no
 * locks, no system calls of our own.
 */
#include "dwarf.h"

const unwind_row *dwarf_find(const unwind_table *t, uint64_t pc_offset) {
    if (!t || t->nrows == 0 || pc_offset > UINT32_MAX) return NULL;
    size_t lo = 0, hi = t->nrows;  /* lo = number of rows starting at or below pc_offset */
    if (t->page_first) {
        /* The rows starting below pc_offset's page are all at or below it; those starting at or after the
         * next page all above it: search only between (see dwarf_index.c). */
        if (pc_offset < t->rows[0].pc_offset) return NULL;
        size_t page = (size_t)((pc_offset - t->rows[0].pc_offset) >> t->page_shift);
        if (page >= t->npages) {
            lo = t->nrows;
        } else {
            lo = t->page_first[page];
            hi = t->page_first[page + 1];
        }
    }
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->rows[mid].pc_offset <= pc_offset) lo = mid + 1;
        else hi = mid;
    }
    if (lo == 0 || t->rows[lo - 1].cfa_reg == UNWIND_NONE) return NULL;
    return &t->rows[lo - 1];
}

/* The step's common part: the CFA, and the return address from memory unless lr is given (ra_in_lr). */
static bool step(const unwind_row *row, uintptr_t *pc, uintptr_t *sp, uintptr_t *fp, const uintptr_t *ra_in_lr,
                 bool (*read_word)(uintptr_t addr, uintptr_t *out)) {
    if (!row) return false;
    uintptr_t base;
    if (row->cfa_reg == UNWIND_SP) base = *sp;
    else if (row->cfa_reg == UNWIND_FP) base = *fp;
    else return false;
    uintptr_t cfa = base + (intptr_t)row->cfa_offset;
    /* The stack grows down: a caller's frame is above (a leaf that keeps its return address in the link
     * register may have no frame: its CFA is its sp). */
    if (ra_in_lr ? cfa < *sp : cfa <= *sp) return false;
    if (cfa < 16) return false;
    uintptr_t ra, saved_fp = *fp;
    if (ra_in_lr) ra = *ra_in_lr;
#if ARCH_RA_ALWAYS_BELOW_CFA
    else if (!read_word(cfa - sizeof(uintptr_t), &ra)) return false;
#else
    else if (row->ra_slot == UNWIND_RA_IN_LR) return false;
    else if (row->ra_slot == UNWIND_RA_AFTER_FP) {
        if (!read_word(cfa + (intptr_t)row->fp_offset + (intptr_t)sizeof(uintptr_t), &ra)) return false;
    } else if (!read_word(cfa + (intptr_t)row->ra_slot * (intptr_t)sizeof(uintptr_t), &ra)) {
        return false;
    }
#endif
    if (row->fp_offset == UNWIND_FP_UNKNOWN) saved_fp = 0;
    else if (row->fp_offset != UNWIND_FP_SAME && !read_word(cfa + (intptr_t)row->fp_offset, &saved_fp))
        return false;
    *pc = arch_code_address(ra);
    *sp = cfa;
    *fp = saved_fp;
    return true;
}

bool dwarf_step(const unwind_row *row, uintptr_t *pc, uintptr_t *sp, uintptr_t *fp,
                bool (*read_word)(uintptr_t addr, uintptr_t *out)) {
    return step(row, pc, sp, fp, NULL, read_word);
}

bool dwarf_step_leaf(const unwind_row *row, uintptr_t *pc, uintptr_t *sp, uintptr_t *fp, uintptr_t lr,
                     bool (*read_word)(uintptr_t addr, uintptr_t *out)) {
    bool in_lr = row && lr && row->ra_slot == UNWIND_RA_IN_LR;
    return step(row, pc, sp, fp, in_lr ? &lr : NULL, read_word);
}
