/* Runs in signal handlers: async-signal-safe code only. */
/*
 * walk_fp: follows the rbp chain. Each frame's saved rbp must lie above the previous one on the stack,
 * so a garbage chain (code built without frame pointers) ends the walk instead of looping or wandering;
 * every read goes through safe_read. A pc outside any code ends the walk without being recorded.
 */
#include "walk.h"

#include "codeheap.h"
#include "safe_read.h"

/* Sanity bound on one frame's size: larger jumps mean rbp is not a frame pointer. */
#define MAX_FRAME_BYTES (1 << 20)

bool walk_fp_step(uintptr_t *pc, uintptr_t *sp, uintptr_t *fp) {
    uintptr_t saved_fp, ret;
    if (*fp < *sp || *fp - *sp > MAX_FRAME_BYTES || !safe_read_word(*fp, &saved_fp) ||
        !safe_read_word(*fp + sizeof(uintptr_t), &ret))
        return false;
    *sp = *fp + 2 * sizeof(uintptr_t);
    *pc = ret;
    *fp = saved_fp;
    return true;
}

/* Records the frame at pc unless the walk must stop there; returns false to stop. */
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

int walk_fp(walk_regs regs, trace_frame *out, int max, walk_end *end) {
    uintptr_t pc = regs.pc, fp = regs.fp, sp = regs.sp;
    int n = 0;
    *end = WALK_ROOT;
    for (bool leaf = true; walk_record(pc, leaf, out, max, &n, end); leaf = false) {
        if (!walk_fp_step(&pc, &sp, &fp)) break;
    }
    return n;
}
