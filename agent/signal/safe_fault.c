/* [signal-safe] Runs in signal handlers: the fault-tolerant load and the fault handler (installed by
 * safe_fault_install.c). */
/*
 * safe_fault: the fault-tolerant load. safe_fault_load is written in assembly so that the only instruction
 * that can fault is its first one, at a known address, before anything is pushed: recovering is setting
 * the interrupted pc to the failure exit, which returns false. The handler checks three things before it
 * recovers: the fault was raised by the kernel (si_code > 0: not a SIGSEGV sent with kill), it happened at
 * that very instruction, and it is a SIGSEGV or SIGBUS (a file mapping cut short). Anything else is passed
 * to the previous handler with the same arguments, so the JVM sees its own faults exactly as before.
 *
 * The previous handler's sa_mask and flags are copied into ours, so the mask in force while it runs is
 * the one it asked for; SA_RESETHAND is emulated (the disposition goes back to the default before the
 * call), SIG_DFL is honoured by restoring it and raising the signal again, SIG_IGN by ignoring what may be
 * ignored (a fault cannot be: the kernel would kill, so the default action is restored for it).
 */
#define _GNU_SOURCE
#include "safe_fault.h"

#include "arch.h"
#include "default_action.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <ucontext.h>

/* The body is the architecture's (arch.h): the load at safe_fault_insn is the only instruction that can
 * fault. */
__asm__(".text\n"
        ".globl safe_fault_load\n"
        ".hidden safe_fault_load\n"
        ".type safe_fault_load, @function\n"
        "safe_fault_load:\n"
        ".cfi_startproc\n"
        ".globl safe_fault_insn\n"
        ".hidden safe_fault_insn\n"
        ARCH_SAFE_FAULT_LOAD_BODY
        ".cfi_endproc\n"
        ".size safe_fault_load, .-safe_fault_load\n");

extern const char safe_fault_insn[], safe_fault_recover[];

struct sigaction safe_fault_previous[2];

int safe_fault_slot(int signo) {
    return signo == SIGBUS;
}

static void chain(int signo, siginfo_t *info, void *ucontext) {
    const struct sigaction *prev = &safe_fault_previous[safe_fault_slot(signo)];
    if (prev->sa_flags & SA_SIGINFO) {
        if (prev->sa_flags & SA_RESETHAND) default_action_restore(signo);
        prev->sa_sigaction(signo, info, ucontext);
    } else if (prev->sa_handler == SIG_IGN && info->si_code <= 0) {
        /* Ignored, as before: only a signal sent with kill can be. */
    } else if (prev->sa_handler == SIG_DFL || prev->sa_handler == SIG_IGN) {
        default_action_raise(signo);
    } else {
        if (prev->sa_flags & SA_RESETHAND) default_action_restore(signo);
        prev->sa_handler(signo);
    }
}

void safe_fault_handler(int signo, siginfo_t *info, void *ucontext) {
    ucontext_t *uc = ucontext;
    if (info && info->si_code > 0 && uc && arch_uc_pc(uc) == (uintptr_t)safe_fault_insn) {
        arch_uc_set_pc(uc, (uintptr_t)safe_fault_recover);
        return;
    }
    int saved = errno;
    chain(signo, info, ucontext);
    errno = saved;
}

