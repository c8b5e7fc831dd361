/*
 * [signal-safe] arch_x86_64: arch.h for x86_64 (include arch.h, not this file). A call pushes the return
 * address, so it is always one word below the caller's sp (the CFA); rbp is the frame pointer and a frame
 * record is {saved rbp, return address} at rbp. HotSpot's stubs keep a caller's address in rdx, rbx, r13 or
 * rax for a few instructions (walk.h), which the VM walker reads from the context.
 */
#ifndef LIBPROF_ARCH_X86_64_H
#define LIBPROF_ARCH_X86_64_H

#include <elf.h>
#include <stdint.h>

#define ARCH_NAME "x86_64"
#define ARCH_ELF_MACHINE EM_X86_64

/* DWARF register numbers (System V x86_64 psABI): rbp, rsp, and the return address column. */
#define ARCH_DWARF_FP 6
#define ARCH_DWARF_SP 7
#define ARCH_DWARF_RA 16

/* Where the return address is, from the CFA: always the word below it (pushed by the call). */
#define ARCH_RA_ALWAYS_BELOW_CFA 1

/* Relocations that fill import slots: the PLT's and a function pointer taken in position-independent code. */
#define ARCH_RELOC_JUMP_SLOT R_X86_64_JUMP_SLOT
#define ARCH_RELOC_GLOB_DAT R_X86_64_GLOB_DAT
/* A function's address stored in initialised data (void *(*f)(size_t) = malloc). */
#define ARCH_RELOC_ABS64 R_X86_64_64

/* The VM walker reads HotSpot's x86_64 frames and stubs instruction by instruction (walk_vm.c). */
#define ARCH_HAS_VM_WALKER 1
/* The walker's readers of x86_64 instruction sequences (stub_frames.h, transit_frames.h) apply; a leaf's
 * return address is in memory, not in a link register. */
#define ARCH_HOTSPOT_X86_CODE 1

/* HotSpot's interpreter frame (frame_x86.hpp), in words from its rbp: the sender's sp, then last sp, then
 * the Method*; the bytecode pointer five words below the Method* (mirror, mdp, cache, locals, then bcp). */
#define ARCH_HOTSPOT_INTERP_SENDER_SP_SLOT (-1)
#define ARCH_HOTSPOT_INTERP_METHOD_SLOT (-3)
#define ARCH_HOTSPOT_INTERP_BCP_BELOW_METHOD 5
/* The VM exports the interpreter frame's sender-sp and last-sp offsets (vmStructs_x86.hpp): checked. */
#define ARCH_HOTSPOT_INTERP_SLOTS_EXPORTED 1

/* A code address as a return address holds it: x86_64 return addresses carry nothing else. */
static inline uintptr_t arch_code_address(uintptr_t address) { return address; }

/* `syscall` (0f 05): where the kernel leaves the pc of a thread it will restart in a system call. */
#define ARCH_SYSCALL_INSN 0x050fu
#define ARCH_SYSCALL_INSN_BYTES 2

/* The interrupted registers in a signal's ucontext (their names need _GNU_SOURCE). */
#ifdef _GNU_SOURCE
#include <ucontext.h>

static inline uintptr_t arch_uc_pc(const ucontext_t *uc) { return (uintptr_t)uc->uc_mcontext.gregs[REG_RIP]; }
static inline uintptr_t arch_uc_sp(const ucontext_t *uc) { return (uintptr_t)uc->uc_mcontext.gregs[REG_RSP]; }
static inline uintptr_t arch_uc_fp(const ucontext_t *uc) { return (uintptr_t)uc->uc_mcontext.gregs[REG_RBP]; }
/* No link register: a leaf's return address is in memory. */
static inline uintptr_t arch_uc_lr(const ucontext_t *uc) { (void)uc; return 0; }
/* The first result register: a system call's return value. */
static inline long arch_uc_result(const ucontext_t *uc) { return (long)uc->uc_mcontext.gregs[REG_RAX]; }

static inline void arch_uc_set_pc(ucontext_t *uc, uintptr_t pc) { uc->uc_mcontext.gregs[REG_RIP] = (greg_t)pc; }
static inline void arch_uc_set_frame(ucontext_t *uc, uintptr_t pc, uintptr_t sp, uintptr_t fp) {
    uc->uc_mcontext.gregs[REG_RIP] = (greg_t)pc;
    uc->uc_mcontext.gregs[REG_RSP] = (greg_t)sp;
    uc->uc_mcontext.gregs[REG_RBP] = (greg_t)fp;
}

/* The registers HotSpot's x86_64 stubs keep a caller's address in (walk_regs' dx, bx, r13, ax). */
/* HotSpot's first Java argument register (j_rarg0): a virtual call's receiver in the vtable and itable stubs. */
static inline uintptr_t arch_uc_java_receiver(const ucontext_t *uc) { return (uintptr_t)uc->uc_mcontext.gregs[REG_RSI]; }

static inline void arch_uc_vm_regs(const ucontext_t *uc, uintptr_t *dx, uintptr_t *bx, uintptr_t *r13,
                                   uintptr_t *ax) {
    const greg_t *r = uc->uc_mcontext.gregs;
    *dx = (uintptr_t)r[REG_RDX], *bx = (uintptr_t)r[REG_RBX], *r13 = (uintptr_t)r[REG_R13];
    *ax = (uintptr_t)r[REG_RAX];
}
#endif

/* The time-stamp counter: a few cycles to read, where clock_gettime may cost a system call. */
static inline uint64_t arch_cycles(void) { return __builtin_ia32_rdtsc(); }

/* The fault-tolerant load (safe_fault.c): safe_fault_load(addr in rdi, out in rsi); the load at
 * safe_fault_insn is its only instruction that can fault, safe_fault_recover returns false. */
#define ARCH_SAFE_FAULT_LOAD_BODY \
    "safe_fault_insn:\n"          \
    "    movq (%rdi), %rax\n"     \
    "    movq %rax, (%rsi)\n"     \
    "    movl $1, %eax\n"         \
    "    ret\n"                   \
    ".globl safe_fault_recover\n" \
    ".hidden safe_fault_recover\n" \
    "safe_fault_recover:\n"       \
    "    xorl %eax, %eax\n"       \
    "    ret\n"

#endif
