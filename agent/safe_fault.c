/* Runs in signal handlers: async-signal-safe code only (safe_fault_load, the fault handler). */
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

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>

/* rdi = addr, rsi = out. The load at safe_fault_insn is the only instruction that can fault. */
__asm__(".text\n"
        ".globl safe_fault_load\n"
        ".hidden safe_fault_load\n"
        ".type safe_fault_load, @function\n"
        "safe_fault_load:\n"
        ".cfi_startproc\n"
        ".globl safe_fault_insn\n"
        ".hidden safe_fault_insn\n"
        "safe_fault_insn:\n"
        "    movq (%rdi), %rax\n"
        "    movq %rax, (%rsi)\n"
        "    movl $1, %eax\n"
        "    ret\n"
        ".globl safe_fault_recover\n"
        ".hidden safe_fault_recover\n"
        "safe_fault_recover:\n"
        "    xorl %eax, %eax\n"
        "    ret\n"
        ".cfi_endproc\n"
        ".size safe_fault_load, .-safe_fault_load\n");

extern const char safe_fault_insn[], safe_fault_recover[];

static struct sigaction previous[2];     /* [0] SIGSEGV, [1] SIGBUS: what was installed before us */
static struct sigaction seen_after[2];   /* what sigaction reported once ours was installed */
static bool installed;

static int slot(int signo) {
    return signo == SIGBUS;
}

static void restore_default(int signo) {
    struct sigaction dfl;
    memset(&dfl, 0, sizeof(dfl));
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(signo, &dfl, NULL);
}

static void chain(int signo, siginfo_t *info, void *ucontext) {
    const struct sigaction *prev = &previous[slot(signo)];
    if (prev->sa_flags & SA_SIGINFO) {
        if (prev->sa_flags & SA_RESETHAND) restore_default(signo);
        prev->sa_sigaction(signo, info, ucontext);
    } else if (prev->sa_handler == SIG_IGN && info->si_code <= 0) {
        /* Ignored, as before: only a signal sent with kill can be. */
    } else if (prev->sa_handler == SIG_DFL || prev->sa_handler == SIG_IGN) {
        restore_default(signo);
        raise(signo);   /* blocked until we return; then the default action ends the process as it would have */
    } else {
        if (prev->sa_flags & SA_RESETHAND) restore_default(signo);
        prev->sa_handler(signo);
    }
}

static void on_fault(int signo, siginfo_t *info, void *ucontext) {
    ucontext_t *uc = ucontext;
    if (info && info->si_code > 0 && uc && uc->uc_mcontext.gregs[REG_RIP] == (greg_t)(uintptr_t)safe_fault_insn) {
        uc->uc_mcontext.gregs[REG_RIP] = (greg_t)(uintptr_t)safe_fault_recover;
        return;
    }
    int saved = errno;
    chain(signo, info, ucontext);
    errno = saved;
}

static int install_one(int signo, char *err, size_t errlen) {
    struct sigaction ours, current;
    if (sigaction(signo, NULL, &current) != 0) goto fail;
    if ((current.sa_flags & SA_SIGINFO) && current.sa_sigaction == on_fault) return 0;
    previous[slot(signo)] = current;
    ours = current;
    ours.sa_sigaction = on_fault;
    ours.sa_flags = (ours.sa_flags & ~SA_RESETHAND) | SA_SIGINFO;
    if (sigaction(signo, &ours, NULL) != 0 || sigaction(signo, NULL, &seen_after[slot(signo)]) != 0) goto fail;
    return 0;
fail:
    snprintf(err, errlen, "cannot install a %s handler: %s", signo == SIGBUS ? "SIGBUS" : "SIGSEGV", strerror(errno));
    return -1;
}

/* A load from a page that can never be read must fail, and one from a readable word must succeed. */
static int self_test(char *err, size_t errlen) {
    void *page = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (page == MAP_FAILED) {
        snprintf(err, errlen, "cannot map a test page: %s", strerror(errno));
        return -1;
    }
    uintptr_t word = 0, known = 0x5afe;
    bool faulted = !safe_fault_load((uintptr_t)page, &word);
    bool loaded = safe_fault_load((uintptr_t)&known, &word) && word == known;
    munmap(page, 4096);
    if (faulted && loaded) return 0;
    snprintf(err, errlen, "the fault-tolerant load does not work here (faulting load %s, good load %s)",
             faulted ? "recovered" : "returned", loaded ? "ok" : "failed");
    return -1;
}

int safe_fault_install(char *err, size_t errlen) {
    if (install_one(SIGSEGV, err, errlen) || install_one(SIGBUS, err, errlen)) return -1;
    installed = true;
    return self_test(err, errlen);
}

bool safe_fault_intact(void) {
    if (!installed) return false;
    const int signals[] = {SIGSEGV, SIGBUS};
    for (int i = 0; i < 2; i++) {
        struct sigaction now;
        const struct sigaction *want = &seen_after[slot(signals[i])];
        if (sigaction(signals[i], NULL, &now) != 0 || now.sa_sigaction != want->sa_sigaction ||
            now.sa_flags != want->sa_flags)
            return false;
    }
    return true;
}
