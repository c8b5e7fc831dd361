/*
 * safe_fault: a memory load that survives an invalid address. Our own SIGSEGV/SIGBUS handler recognises a
 * fault raised by the one load instruction of safe_fault_load and resumes at its failure exit; every other
 * fault (HotSpot's implicit null checks, safepoint polls, real crashes) goes to the handler installed
 * before ours, called exactly as the kernel would have called it. No system call is made, so a seccomp
 * filter cannot forbid it, and it costs a plain load when the address is good.
 */
#ifndef LIBPROF_SAFE_FAULT_H
#define LIBPROF_SAFE_FAULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* True and *out set when the word at addr could be loaded; false when the load faulted. Only valid after
 * safe_fault_install succeeded. Async-signal-safe. */
bool safe_fault_load(uintptr_t addr, uintptr_t *out);

/* Installs the SIGSEGV and SIGBUS handlers in front of the current ones (where ours is not installed
 * already), then proves them with a load from an inaccessible page. Outside signal handlers. 0, or -1
 * with the reason in err. */
int safe_fault_install(char *err, size_t errlen);

/* True while the handlers installed by safe_fault_install are still the ones the process uses (another
 * party may have replaced them since). Outside signal handlers. */
bool safe_fault_intact(void);

#endif
