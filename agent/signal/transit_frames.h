/*
 * [signal-safe] transit_frames: a leaf caught while HotSpot passes control from a caller to the method it calls,
 * or back, in code that keeps the return address in a register or has no frame of its own (x86_64, JDK 17
 * and 21+). Each rule follows the exact instruction sequence HotSpot emits; a pc outside it is not guessed at.
 *  - A C2I adapter (SharedRuntime's gen_c2i_adapter), which moves a compiled caller's arguments to where the
 *    interpreter wants them: JDK 17 `pop rax; mov r13, rsp; sub rsp, n; mov [rsp], rax; <stores>; jmp rcx`,
 *    JDK 21+ `lea r13, [rsp+8]; pop rax; sub rsp, n; push rax; <stores>; jmp rcx`.
 *  - The interpreter's method entry between `pop rax` (the return address) and `push rax` in the fixed frame
 *    (TemplateInterpreterGenerator's normal and native entries): in between the locals are pushed, as many
 *    as the method has. The caller's sp is in r13 (the sender sp).
 *  - The interpreter's remove_activation after `pop r13` (the return address) up to `jmp r13`: the caller's
 *    sp is in rbx.
 *  - The interpreter's exception continuation, in the VM looking up the caller's handler: the caller's return
 *    address pushed on the caller's own stack.
 *  - A compiled method's static call stub (`mov rbx, Method*; jmp <C2I entry>`, in the nmethod's stub
 *    section): reached by a call from the same nmethod, so the return address is at sp.
 * Reads go through code_bytes (safe_read).
 */
#ifndef LIBPROF_TRANSIT_FRAMES_H
#define LIBPROF_TRANSIT_FRAMES_H

#include "codeblob.h"

#include <stdbool.h>
#include <stdint.h>

typedef enum { TRANSIT_ELSEWHERE = 0, TRANSIT_RET_AT_SP, TRANSIT_RET_IN_RAX, TRANSIT_RET_IN_RDX } transit_ret;

/* A leaf at pc in the C2I part of adapter blob b, with the interrupted sp and r13: where the return address
 * is and the caller's sp. TRANSIT_ELSEWHERE when pc is outside the sequence, the blob's code has neither
 * shape, or r13 disagrees with what the sequence has put there. */
transit_ret transit_c2i(const codeblob *b, uintptr_t pc, uintptr_t sp, uintptr_t r13, uintptr_t *caller_sp);

/* True for a pc in the interpreter's method entry after `pop rax` and up to (not past) `push rax`. */
bool transit_interp_entry_popped(uintptr_t pc);

/* True for a pc in the interpreter's remove_activation after `pop r13` and up to (not past) `jmp r13`. */
bool transit_interp_return_popped(uintptr_t pc);

/* A return address into the interpreter's exception continuation, right after its call of
 * SharedRuntime::exception_handler_for_return_address (TemplateInterpreterGenerator's throw_exception: the
 * activation that threw is gone, the caller's return address (rdx) and the exception (rax) are pushed, and
 * call_VM_leaf may have pushed a word of padding below them): true and the words from sp to that return
 * address (0 or 1); the caller's sp is two words above it. */
bool transit_interp_exception_call(uintptr_t ret, unsigned *ret_words);

/* True for a pc in that continuation's start, after `pop rdx` (the caller's return address) and up to (not
 * past) `push rdx`: the caller's sp is in rbx. */
bool transit_interp_exception_popped(uintptr_t pc);

/* A leaf in the last instructions of that continuation (`mov rbx, rax; pop rdx; pop rax; jmp rbx`): where the
 * caller's return address is (at sp, or popped into rdx) and the caller's sp. */
transit_ret transit_interp_exception_leaf(uintptr_t pc, uintptr_t sp, uintptr_t *caller_sp);

/* True for a pc at either instruction of a static call stub in nmethod b's stub section. */
bool transit_static_call_stub(const codeblob *b, uintptr_t pc);

#endif
