/*
 * [signal-safe] safe_fault: a memory load that survives an invalid address. Our own SIGSEGV/SIGBUS handler recognises a
 * fault raised by the one load instruction of safe_fault_load and resumes at its failure exit; every other
 * fault (HotSpot's implicit null checks, safepoint polls, real crashes) goes to the handler installed
 * before ours, called exactly as the kernel would have called it. No system call is made, so a seccomp
 * filter cannot forbid it, and it costs a plain load when the address is good.
 */
#ifndef LIBPROF_SAFE_FAULT_H
#define LIBPROF_SAFE_FAULT_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* True and *out set when the word at addr could be loaded; false when the load faulted. Only valid after
 * safe_fault_install succeeded. Async-signal-safe. */
bool safe_fault_load(uintptr_t addr, uintptr_t *out);

/* The SIGSEGV/SIGBUS handler: recovers a fault of safe_fault_load, passes any other to the handler that
 * was installed before (safe_fault_previous, by safe_fault_slot: 0 SIGSEGV, 1 SIGBUS), called as the
 * kernel would have called it. Set by safe_fault_install.c, which fills safe_fault_previous first. */
void safe_fault_handler(int signo, siginfo_t *info, void *ucontext);
extern struct sigaction safe_fault_previous[2];
int safe_fault_slot(int signo);

#endif
