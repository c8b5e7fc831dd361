/* Runs in signal handlers: async-signal-safe code only (safe_read_word). */
/*
 * safe_read: two ways to prove an address readable. Inside the interrupted thread's own stack, whose bounds
 * were recorded when the thread started (initial-exec TLS: a fixed offset from the thread pointer, no
 * allocation on access), a plain load is safe. Anywhere else the kernel copies the word with
 * process_vm_readv on our own pid and answers EFAULT for an unmapped address instead of raising SIGSEGV.
 */
#define _GNU_SOURCE
#include "safe_read.h"

#include <errno.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

static __thread struct {
    uintptr_t low, high;
} own_stack __attribute__((tls_model("initial-exec")));

void safe_read_register_current_stack(void) {
    pthread_attr_t attr;
    void *base;
    size_t size;
    if (pthread_getattr_np(pthread_self(), &attr) != 0) return;
    if (pthread_attr_getstack(&attr, &base, &size) == 0) {
        own_stack.low = (uintptr_t)base;
        own_stack.high = (uintptr_t)base + size;
    }
    pthread_attr_destroy(&attr);
}

bool safe_read_word(uintptr_t addr, uintptr_t *out) {
    if (addr < 4096 || (addr & (sizeof(uintptr_t) - 1))) return false;
    if (addr >= own_stack.low && addr + sizeof(uintptr_t) <= own_stack.high) {
        *out = *(const uintptr_t *)addr;
        return true;
    }
    int saved = errno;
    struct iovec local = {out, sizeof(*out)};
    struct iovec remote = {(void *)addr, sizeof(*out)};
    long n = syscall(SYS_process_vm_readv, (long)getpid(), &local, 1UL, &remote, 1UL, 0UL);
    errno = saved;
    return n == (long)sizeof(*out);
}
