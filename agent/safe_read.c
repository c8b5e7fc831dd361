/* Runs in signal handlers: async-signal-safe code only. */
/*
 * safe_read: the kernel copies the word for us with process_vm_readv on our own pid and answers EFAULT for
 * an unmapped address instead of raising SIGSEGV. It costs a system call, so callers use it only where a
 * cheaper bound (the thread's own stack) does not already prove the address good.
 */
#define _GNU_SOURCE
#include "safe_read.h"

#include <errno.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

bool safe_read_word(uintptr_t addr, uintptr_t *out) {
    if (addr < 4096 || (addr & (sizeof(uintptr_t) - 1))) return false;
    int saved = errno;
    struct iovec local = {out, sizeof(*out)};
    struct iovec remote = {(void *)addr, sizeof(*out)};
    long n = syscall(SYS_process_vm_readv, (long)getpid(), &local, 1UL, &remote, 1UL, 0UL);
    errno = saved;
    return n == (long)sizeof(*out);
}
