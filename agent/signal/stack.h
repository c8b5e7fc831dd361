/*
 * [signal-safe] stack: assembles the interrupted thread's whole stack for the handler, leaf first: the
 * kernel frames the engine recorded, the native frames (walked by frame pointers or DWARF, or with the
 * Java frames in one walk for cstack=vm), the Java frames from AsyncGetCallTrace, and a marker frame where
 * a part is missing and why. Called by signal/sample.c only.
 */
#ifndef LIBPROF_STACK_H
#define LIBPROF_STACK_H

#include "asgct.h"
#include "engine.h"
#include "frame.h"

#include <signal.h>
#include <stdint.h>

/* Writes the stack of the thread 'tid' (env: its JNIEnv, NULL when it runs no Java) to out, using raw
 * (jstackdepth entries) for AsyncGetCallTrace; bounded by jstackdepth; kernel frames from engine e (the one
 * that sent the signal) where it has them. Returns its depth. */
uint32_t stack_collect(const engine *e, const siginfo_t *info, void *ucontext, JNIEnv *env, uint32_t tid,
                       asgct_frame *raw, trace_frame *out);

#endif
