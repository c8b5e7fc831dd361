/*
 * safe_fault_install: the set-up half of safe_fault (signal/safe_fault.c): puts the fault handler in front
 * of the SIGSEGV and SIGBUS handlers already installed, remembering them for chaining, proves it with a
 * load from an inaccessible page, and later tells whether it is still in place. Outside signal handlers;
 * called by safe_read_mode when profiling starts and by the tests.
 */
#define _GNU_SOURCE
#include "safe_fault_install.h"
#include "safe_fault.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

static struct sigaction seen_after[2];   /* what sigaction reported once ours was installed */
static bool installed;

static int install_one(int signo, char *err, size_t errlen) {
    struct sigaction ours, current;
    if (sigaction(signo, NULL, &current) != 0) goto fail;
    if ((current.sa_flags & SA_SIGINFO) && current.sa_sigaction == safe_fault_handler) return 0;
    safe_fault_previous[safe_fault_slot(signo)] = current;
    ours = current;
    ours.sa_sigaction = safe_fault_handler;
    ours.sa_flags = (ours.sa_flags & ~SA_RESETHAND) | SA_SIGINFO;
    if (sigaction(signo, &ours, NULL) != 0 || sigaction(signo, NULL, &seen_after[safe_fault_slot(signo)]) != 0)
        goto fail;
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
        const struct sigaction *want = &seen_after[safe_fault_slot(signals[i])];
        if (sigaction(signals[i], NULL, &now) != 0 || now.sa_sigaction != want->sa_sigaction ||
            now.sa_flags != want->sa_flags)
            return false;
    }
    return true;
}
