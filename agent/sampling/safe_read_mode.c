/*
 * safe_read_mode: the fault-tolerant load is the default: it makes no system call, so no seccomp filter can
 * forbid it (systemd's SystemCallFilter kills a process that calls what it denies, and process_vm_readv is
 * rarely allowed), and it costs a plain load where process_vm_readv costs a system call. process_vm_readv
 * remains for a process where our SIGSEGV/SIGBUS handler cannot be installed or proven, unless the process
 * has a seccomp filter: a filter may forbid that call at any time and kill the JVM, so then only memory
 * proven mapped is read (walks end earlier: said in the log).
 *
 * LIBPROF_TEST_SAFE_READ (tests and benchmarks only, not a user option): "syscall" prefers
 * process_vm_readv (still never under a seccomp filter), "nofault" acts as if the fault handler could not
 * be installed.
 */
#define _GNU_SOURCE
#include "safe_read_mode.h"

#include "log.h"
#include "proc_status.h"
#include "safe_fault.h"
#include "safe_fault_install.h"
#include "safe_read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool chosen, replaced_warned;
static int seccomp_mode;

int safe_read_mode_seccomp(void) {
    char value[32];
    if (!proc_status_field("/proc/thread-self/status", "Seccomp", value, sizeof(value)) &&
        !proc_status_field("/proc/self/status", "Seccomp", value, sizeof(value)))
        return -1;
    return atoi(value);
}

const char *safe_read_mode_name(void) {
    static const char *const names[] = {"fault", "process_vm_readv", "bounded"};
    return names[safe_read_get_mechanism()];
}

/* Without the fault handler: process_vm_readv, unless a seccomp filter may forbid it. */
static safe_read_mechanism without_fault_handler(void) {
    return seccomp_mode == 0 ? SAFE_READ_SYSCALL : SAFE_READ_BOUNDED;
}

void safe_read_mode_choose(void) {
    if (chosen) return;
    chosen = true;
    const char *test = getenv("LIBPROF_TEST_SAFE_READ");
    seccomp_mode = safe_read_mode_seccomp();
    char why[256] = "";
    safe_read_mechanism m;
    if (test && strcmp(test, "syscall") == 0 && seccomp_mode == 0) {
        m = SAFE_READ_SYSCALL;
        snprintf(why, sizeof(why), "LIBPROF_TEST_SAFE_READ=syscall");
    } else if (test && strcmp(test, "nofault") == 0) {
        m = without_fault_handler();
        snprintf(why, sizeof(why), "LIBPROF_TEST_SAFE_READ=nofault: fault handler not installed (simulated)");
    } else if (safe_fault_install(why, sizeof(why)) == 0) {
        m = SAFE_READ_FAULT;
    } else {
        m = without_fault_handler();
    }
    safe_read_set_mechanism(m);
    const char *seccomp = seccomp_mode == 0 ? "no seccomp filter" : seccomp_mode < 0 ? "seccomp mode unknown"
                                                                                      : "seccomp filter mode";
    if (m == SAFE_READ_BOUNDED)
        log_warn("safe reads: %s (%s; %s): process_vm_readv is not used, stack walks end where memory is not "
                 "known to be mapped", safe_read_mode_name(), seccomp, why);
    else
        log_info("safe reads: %s (%s%s%s)", safe_read_mode_name(), seccomp, why[0] ? "; " : "", why);
}

void safe_read_mode_check(void) {
    if (safe_read_get_mechanism() != SAFE_READ_FAULT || safe_fault_intact()) return;
    safe_read_set_mechanism(without_fault_handler());
    if (replaced_warned) return;
    replaced_warned = true;
    log_warn("the SIGSEGV/SIGBUS handler of the safe reads was replaced by another party: safe reads now use %s",
             safe_read_mode_name());
}
