/*
 * [signal-safe] thread_state_read: what the interrupted thread is doing, read in its own signal handler
 * without a system call (thread_state.h). A Java thread says it itself: HotSpot keeps its state in
 * JavaThread::_thread_state (in Java, in the VM, in native, blocked) and, while blocked, why in its
 * OSThread's _state (Thread.sleep: SLEEPING, Object.wait: OBJECT_WAIT, a contended monitor: MONITOR_WAIT,
 * LockSupport.park: CONDVAR_WAIT); both are found from the thread's JNIEnv, which HotSpot embeds in the
 * JavaThread. Any thread, Java or not, that the signal found inside a system call that was waiting is told
 * by its registers: the kernel leaves the instruction pointer on the `syscall` instruction (to restart
 * it) or just after it with -EINTR in rax. The layout comes from the VM structure tables
 * (thread_state_init.c), read once outside handlers; without it Java threads are told by their registers
 * alone.
 */
#ifndef LIBPROF_THREAD_STATE_READ_H
#define LIBPROF_THREAD_STATE_READ_H

#include "frame.h"

#include <jni.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct {
    uint64_t env_offset;          /* JavaThread::_jni_environment: the JNIEnv inside the JavaThread */
    uint64_t java_state_offset;   /* JavaThread::_thread_state (an int) */
    uint64_t osthread_offset;     /* (Java)Thread::_osthread */
    uint64_t os_state_offset;     /* OSThread::_state (an int) */
    int in_native, in_native_trans, blocked, blocked_trans;   /* JavaThreadState values */
    int os_monitor_wait, os_condvar_wait, os_object_wait, os_sleeping;   /* OSThread ThreadState values */
    /* Thread.sleep's native method (JDK 17: sleep(J)V; 21: sleep0(J)V; 25: sleepNanos0(J)V), 0 when absent:
     * HotSpot's sleep waits as LockSupport.park does (CONDVAR_WAIT), so the leaf Java frame tells sleeping
     * from parked. */
    uint64_t sleep_methods[3];
} thread_state_layout;

/* Outside handlers, before profiling starts: Java threads are read with this layout from now on. */
void thread_state_set_layout(const thread_state_layout *layout);

/* The calling (interrupted) thread's thread_state; env: its JNIEnv, NULL when it runs no Java; its stack
 * as taken, leaf first. */
int thread_state_read(const void *ucontext, JNIEnv *env, const trace_frame *frames, uint32_t depth);


#endif
