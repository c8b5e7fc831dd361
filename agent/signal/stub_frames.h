/*
 * [signal-safe] stub_frames: where the caller is for a pc inside HotSpot code whose frame its code blob does not
 * describe, read from the code itself (x86_64). Each rule follows the exact instruction sequence HotSpot emits
 * there (JDK 17 and 21+ alike); a pc outside the known sequence is not guessed at (the rule says nothing).
 *  - C2's exception blob (OptoRuntime::generate_exception_blob), entered by a jump with the exception pc,
 *    a return address of the compiled frame at sp, in rdx: `push rdx; sub rsp, 8; ...; add rsp, 8; pop rdx;
 *    ...; jmp r8`.
 *  - C1's slow_subtype_check stub (Runtime1): frameless, called after its caller pushed two arguments (the
 *    sub and super klass; `push; push; call; pop; pop` in the caller); pushes rdi, rsi, rcx, rax, loads its arguments, (JDK 21+) `sub rsp, 32` around
 *    the secondary supers table lookup and `lea rsp, [rsp+32]` after it, then pops and returns.
 *  - A compiled method's prologue (MacroAssembler::verified_entry) between `sub rsp, N` and the store of
 *    rbp at its top: the frame is allocated, the caller's rbp still in rbp.
 *  - C2's stack-to-stack copy `push [rsp+a]; pop [rsp+b]`: one word pushed for the length of an instruction.
 *  - An rbp frame's `push rbp; mov rbp, rsp` and `ret` (the deoptimisation blob's leaves).
 * Async-signal-safe: reads go through safe_read.
 */
#ifndef LIBPROF_STUB_FRAMES_H
#define LIBPROF_STUB_FRAMES_H

#include "codeblob.h"

#include <stdbool.h>
#include <stdint.h>

/* STUB_UNCOMMON_TRAP: C2's uncommon trap blob ("UncommonTrapBlob"), which deoptimises its caller as the
 * deoptimisation blob does (walk_vm steps it). STUB_ADAPTER: an I2C/C2I adapter blob. */
typedef enum {
    STUB_OTHER = 0,
    STUB_EXCEPTION_BLOB,
    STUB_C1_SUBTYPE_CHECK,
    STUB_UNCOMMON_TRAP,
    STUB_ADAPTER,
    STUB_CONTINUATION,  /* the continuation stubs (JDK 21+): the return barrier of a virtual thread's frames */
    STUB_VTABLE         /* "vtable chunks": the vtable and itable stubs, entered with the receiver in j_rarg0 */
} stub_kind;

/* Which of the stubs above blob b (a BLOB_STUB) is, from its name; the answer per name is cached. */
stub_kind stub_frames_kind(const codeblob *b);

/* Where the return address of a leaf at pc in the exception blob b is: in rdx (true, *ret_words = -1), or
 * *ret_words words above sp. False for a pc the rule does not know. */
bool stub_frames_exception_blob(const codeblob *b, uintptr_t pc, int *ret_words);

/* The words between sp and the return address of a leaf at pc in the slow_subtype_check stub b; its caller's
 * own frame starts two words above the return address (the pushed arguments). -1 when unknown. */
int stub_frames_subtype_check_depth(const codeblob *b, uintptr_t pc);

/* Words a C1 caller of slow_subtype_check has pushed when its leaf pc is in `push a; push b; call; pop; pop`:
 * 1 at the second push, 2 at the call and right after it, 1 after the first pop; 0 elsewhere, and until a
 * sample has met the stub. */
unsigned stub_frames_subtype_args_pushed(uintptr_t pc);

/* A leaf in a compiled method's prologue with its frame allocated but rbp not yet stored (pc at the store
 * right after `sub rsp, N`): true and the return address's offset from sp in bytes (N). */
bool stub_frames_prologue_unsaved_rbp(uintptr_t pc, uintptr_t *ret_offset);

/* Where pc stands in an rbp frame's `push rbp; mov rbp, rsp` ... `leave; ret` (HotSpot's enter() encodes the
 * mov as 48 8B EC; 48 89 E5 is accepted too): at the push (the return address at sp), at the mov (rbp's
 * value pushed at sp, the return address above), at the ret (the frame is gone), or elsewhere. */
typedef enum { ENTER_ELSEWHERE = 0, ENTER_AT_PUSH, ENTER_AT_MOV, ENTER_AT_RET } enter_position;
enter_position stub_frames_enter_at(uintptr_t pc);

/* True when pc is the `pop [rsp+d]` of C2's stack-to-stack copy, right after its `push [rsp+s]`: sp is one
 * word below the frame's. */
bool stub_frames_in_spill_copy(uintptr_t pc);

#endif
