/*
 * safe_read_stack: the set-up half of safe_read.h for thread stacks: recording a thread's stack bounds on
 * the thread itself (safe_read_stack.c). Outside signal handlers.
 */
#ifndef LIBPROF_SAFE_READ_STACK_H
#define LIBPROF_SAFE_READ_STACK_H

#include "safe_read.h"

/* Records the calling thread's stack bounds so that reads inside them need no system call. Call on the
 * thread itself, outside signal handlers (JVMTI ThreadStart, VMInit). */
void safe_read_register_current_stack(void);   /* safe_read_stack.c */

#endif
