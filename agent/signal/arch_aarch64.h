/*
 * [signal-safe] arch_aarch64: arch.h for aarch64 (include arch.h, not this file). A call (bl/blr) leaves
 * the return address in the link register x30; a function that calls on saves it with x29 in a frame record
 * {saved x29, saved x30} that x29 points to, at the bottom of its frame. So a leaf's caller may be in x30
 * only, and DWARF says per row where x30 was saved (the return-address column is x30 itself).
 */
#ifndef LIBPROF_ARCH_AARCH64_H
#define LIBPROF_ARCH_AARCH64_H

#include <elf.h>
#include <stdint.h>

#define ARCH_NAME "aarch64"
#define ARCH_ELF_MACHINE EM_AARCH64

/* DWARF register numbers (AAPCS64 DWARF): x29 the frame pointer, sp, and x30 the return-address column. */
#define ARCH_DWARF_FP 29
#define ARCH_DWARF_SP 31
#define ARCH_DWARF_RA 30

/* The return address is where the CFA rules put x30, or still in x30 (unwind_row.ra_slot). */
#define ARCH_RA_ALWAYS_BELOW_CFA 0

#define ARCH_RELOC_JUMP_SLOT R_AARCH64_JUMP_SLOT
#define ARCH_RELOC_GLOB_DAT R_AARCH64_GLOB_DAT
#define ARCH_RELOC_ABS64 R_AARCH64_ABS64

/* The VM walker reads HotSpot's aarch64 frames: the same frame records and slots as on x86_64, with a leaf's
 * caller in lr until its prologue saved it (a64_code.h); the x86_64 stub and transit readers do not apply. */
#define ARCH_HAS_VM_WALKER 1
#define ARCH_HOTSPOT_X86_CODE 0

/* HotSpot's interpreter frame (frame_aarch64.hpp), in words from its x29: the sender's sp, last sp and the
 * Method* as on x86_64 (codeblob_init checks the first two against the VM's own tables, which is where a
 * later JDK's different layout would show); below the Method* one word more than on x86_64 before the
 * bytecode pointer (mdp, a padding word that JDK 21 turned into the extended sp, mirror, cache, locals, then
 * bcp: six words, on JDK 17 and 21 alike). */
#define ARCH_HOTSPOT_INTERP_SENDER_SP_SLOT (-1)
#define ARCH_HOTSPOT_INTERP_METHOD_SLOT (-3)
#define ARCH_HOTSPOT_INTERP_BCP_BELOW_METHOD 6
/* The VM does not export them on aarch64 (JDK 17 and 21): the slots above are taken as they are; a bcp read
 * outside the method's bytecodes gives bci 0. */
#define ARCH_HOTSPOT_INTERP_SLOTS_EXPORTED 0

/* `svc #0`: where the kernel leaves the pc of a thread it will restart in a system call. */
#define ARCH_SYSCALL_INSN 0xd4000001u
#define ARCH_SYSCALL_INSN_BYTES 4

/* A code address as a return address holds it: code built with pointer authentication (ARMv8.3 PAuth,
 * -mbranch-protection, the default of Debian 13's arm64 packages: glibc, libjvm) signs the return address
 * in its prologue, a signature in the bits above the virtual address, and saves it so in its frame record.
 * XPACLRI strips it from x30; it is a hint, a no-op on processors without PAuth (whose addresses are plain). */
static inline uintptr_t arch_code_address(uintptr_t address) {
    register uintptr_t x30 __asm__("x30") = address;
    __asm__("hint #7" : "+r"(x30));   /* xpaclri */
    return x30;
}

/* The interrupted registers in a signal's ucontext (their names need _GNU_SOURCE). */
#ifdef _GNU_SOURCE
#include <ucontext.h>

static inline uintptr_t arch_uc_pc(const ucontext_t *uc) { return (uintptr_t)uc->uc_mcontext.pc; }
static inline uintptr_t arch_uc_sp(const ucontext_t *uc) { return (uintptr_t)uc->uc_mcontext.sp; }
static inline uintptr_t arch_uc_fp(const ucontext_t *uc) { return (uintptr_t)uc->uc_mcontext.regs[29]; }
static inline uintptr_t arch_uc_lr(const ucontext_t *uc) { return arch_code_address((uintptr_t)uc->uc_mcontext.regs[30]); }
static inline long arch_uc_result(const ucontext_t *uc) { return (long)uc->uc_mcontext.regs[0]; }

static inline void arch_uc_set_pc(ucontext_t *uc, uintptr_t pc) { uc->uc_mcontext.pc = pc; }
static inline void arch_uc_set_frame(ucontext_t *uc, uintptr_t pc, uintptr_t sp, uintptr_t fp) {
    uc->uc_mcontext.pc = pc;
    uc->uc_mcontext.sp = sp;
    uc->uc_mcontext.regs[29] = fp;
}

/* HotSpot's aarch64 interpreter keeps the caller's sp in x19 (r19_sender_sp) on its method entry, where
 * x86_64's keeps it in r13 (walk_regs' r13); the other x86_64 stub registers have no counterpart read here. */
/* HotSpot's first Java argument register (j_rarg0, x1): a virtual call's receiver in the vtable and itable stubs. */
static inline uintptr_t arch_uc_java_receiver(const ucontext_t *uc) { return (uintptr_t)uc->uc_mcontext.regs[1]; }

static inline void arch_uc_vm_regs(const ucontext_t *uc, uintptr_t *dx, uintptr_t *bx, uintptr_t *r13,
                                   uintptr_t *ax) {
    *dx = *bx = *ax = 0;
    *r13 = (uintptr_t)uc->uc_mcontext.regs[19];
}
#endif

/* The virtual counter: readable from user space on Linux, a fixed frequency measured at reset like the TSC. */
static inline uint64_t arch_cycles(void) {
    uint64_t v;
    __asm__ volatile("mrs %0, cntvct_el0" : "=r"(v));
    return v;
}

/* The fault-tolerant load (safe_fault.c): safe_fault_load(addr in x0, out in x1); the load at
 * safe_fault_insn is its only instruction that can fault, safe_fault_recover returns false. */
#define ARCH_SAFE_FAULT_LOAD_BODY \
    "safe_fault_insn:\n"          \
    "    ldr x2, [x0]\n"          \
    "    str x2, [x1]\n"          \
    "    mov w0, #1\n"            \
    "    ret\n"                   \
    ".globl safe_fault_recover\n" \
    ".hidden safe_fault_recover\n" \
    "safe_fault_recover:\n"       \
    "    mov w0, #0\n"            \
    "    ret\n"

#endif
