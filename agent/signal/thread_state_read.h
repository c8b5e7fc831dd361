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
    uint64_t anchor_sp_offset, anchor_pc_offset;   /* JavaThread::_anchor's _last_Java_sp, _pc; 0: unknown */
} thread_state_layout;

/* Outside handlers, before profiling starts: Java threads are read with this layout from now on. */
void thread_state_set_layout(const thread_state_layout *layout);

/* The calling (interrupted) thread's thread_state; env: its JNIEnv, NULL when it runs no Java; its stack
 * as taken, leaf first. */
int thread_state_read(const void *ucontext, JNIEnv *env, const trace_frame *frames, uint32_t depth);

/* What a blocked Java thread's memory says of its wait, read again later from another thread to tell that
 * it is still in the same wait without a system call: its JavaThread's and OSThread's states, its frame
 * anchor (the last Java frame's sp and pc, set when it left Java to wait) and the return address below that
 * frame. A thread that leaves the wait and comes back to the same one, same call, same depth, reads the
 * same: its stack is then the same too, and only the time it spent away is not seen (the wall engine
 * checks its CPU clock every few marks for that). */
#define THREAD_WAIT_MARK_WORDS 6
typedef struct {
    uintptr_t java_thread;     /* 0: none (not a Java thread, not blocked, or the layout lacks a part) */
    uintptr_t words[THREAD_WAIT_MARK_WORDS];
} thread_wait_mark;

/* In the thread's own handler: its mark, java_thread 0 when it has none. */
void thread_wait_mark_own(JNIEnv *env, thread_wait_mark *mark);

/* From any thread: whether the thread whose mark was taken is still in that wait (every word read through
 * safe_read: the thread may have ended and its JavaThread been freed). */
bool thread_wait_mark_same(const thread_wait_mark *mark);

#endif
