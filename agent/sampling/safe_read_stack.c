/*
 * safe_read_stack: the set-up half of safe_read (signal/safe_read.c). A thread the JVM reports records its
 * stack bounds once, on the thread, so that safe_read can read that stack without a system call. pthread
 * may allocate: never called from a signal handler (JVMTI ThreadStart, VMInit).
 */
#define _GNU_SOURCE
#include "safe_read.h"
#include "safe_read_stack.h"

#include <pthread.h>

void safe_read_register_current_stack(void) {
    pthread_attr_t attr;
    void *base;
    size_t size;
    if (pthread_getattr_np(pthread_self(), &attr) != 0) return;
    if (pthread_attr_getstack(&attr, &base, &size) == 0)
        safe_read_set_thread_stack((uintptr_t)base, (uintptr_t)base + size);
    pthread_attr_destroy(&attr);
}
