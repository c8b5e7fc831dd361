/*
 * [signal-safe] a64_code: HotSpot's aarch64 code read from a handler, for the VM walker (walk_vm.c). On
 * aarch64 a call (bl/blr) leaves the return address in lr (x30); HotSpot's compiled frames save it with x29
 * in a frame record at the top of the frame (MacroAssembler::build_frame: `sub sp, sp, #size; stp x29, x30,
 * [sp, #size-16]`, or `stp x29, x30, [sp, #-16]!; sub sp, sp, #size-16` for a large frame) and restore it
 * in the epilogue (remove_frame: `ldp x29, x30, [sp, #size-16]; add sp, sp, #size`, or `add sp, sp,
 * #size-16; ldp x29, x30, [sp], #16`), followed by the return poll and `ret`. So a leaf that is not past its
 * prologue, or already in its epilogue, has its caller in lr, and the instructions around pc say how far sp
 * is from the caller's. Reads go through code_bytes (safe_read): an unreadable instruction answers "unknown".
 * Compiled on every processor; only an aarch64 build calls it.
 */
#ifndef LIBPROF_A64_CODE_H
#define LIBPROF_A64_CODE_H

#include <stdbool.h>
#include <stdint.h>

/* True when the instruction before ret is a call: `bl imm26` or `blr xN`. */
bool a64_after_call(uintptr_t ret);

/* A leaf at pc in a frame whose code starts at 'begin' and whose frame is not complete yet: the bytes the
 * prologue has taken off sp by pc (its `sub sp, sp, #imm` and `stp x29, x30, [sp, #-16]!`), from the
 * instructions in [begin, pc) (at most 64 of them). False when one changes sp in another way, or cannot be
 * read. */
bool a64_prologue_sp_delta(uintptr_t begin, uintptr_t pc, uintptr_t *delta);

/* Where a leaf at pc stands in the epilogue of a frame of frame_bytes (remove_frame above, or leave's `mov
 * sp, x29; ldp x29, x30, [sp], #16`): */
typedef enum {
    A64_EPILOGUE_NONE = 0,   /* not in an epilogue (or not recognised) */
    A64_EPILOGUE_AT_LDP,     /* at the post-indexed `ldp x29, x30, [sp], #16`: the record at sp, the caller's sp above it */
    A64_EPILOGUE_RESTORED,   /* x29 and lr restored; *sp_to_caller: the bytes from sp to the caller's sp */
} a64_epilogue;
a64_epilogue a64_epilogue_at(uintptr_t pc, uintptr_t frame_bytes, uintptr_t *sp_to_caller);

#endif
