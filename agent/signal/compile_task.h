/*
 * [signal-safe] compile_task: the Java method a JIT compiler thread is compiling, for features=comptask (as
 * async-profiler adds it): a sample of a compiler thread gets that method as a compiled Java frame right
 * above Compiler::compile_method (C1) or C2Compiler::compile_method (C2) in its stack.
 *
 * A compiler thread is a JavaThread the JVM reports to no agent (no ThreadStart, no JNIEnv for the sample):
 * the walker finds it by its OS thread id in the JVM's list of JavaThreads (ThreadsSMRSupport::
 * _java_thread_list: _length entries at _threads; each JavaThread's _osthread holds _thread_id), once per
 * thread, with safe reads (the list may be replaced meanwhile: a stale read finds nothing or a thread whose
 * method fails the jmethodID check). CompilerThread::_env points to the ciEnv of the compilation in progress
 * (NULL between compilations), whose _task is the CompileTask, whose _method is the Method*. The two compile_method functions are found in libjvm's symbol
 * table and the offsets in the VM structure tables, outside handlers (compile_task_init.c).
 */
#ifndef LIBPROF_COMPILE_TASK_H
#define LIBPROF_COMPILE_TASK_H

#include <stdbool.h>
#include <stdint.h>

#define COMPILE_TASK_ENTRIES 2

typedef struct {
    uintptr_t entry_low[COMPILE_TASK_ENTRIES], entry_high[COMPILE_TASK_ENTRIES];   /* the compile_method functions */
    uintptr_t thread_list_at;  /* the address of ThreadsSMRSupport::_java_thread_list (ThreadsList*) */
    uint64_t list_length;      /* ThreadsList::_length (uint) */
    uint64_t list_threads;     /* ThreadsList::_threads (JavaThread**) */
    uint64_t osthread;         /* JavaThread::_osthread (OSThread*) */
    uint64_t os_tid;           /* OSThread::_thread_id (pid_t) */
    uint64_t thread_env;       /* CompilerThread::_env (ciEnv*) */
    uint64_t env_task;         /* ciEnv::_task (CompileTask*) */
    uint64_t task_method;      /* CompileTask::_method (Method*) */
} compile_task_layout;

/* Outside handlers, once; without it no frame is added. */
void compile_task_set_layout(const compile_task_layout *layout);

/* True when pc is in one of the compile_method functions. Async-signal-safe. */
bool compile_task_entry(uintptr_t pc);

/* The Method* the calling thread (OS id tid) compiles, 0 when none or unreadable. Async-signal-safe. */
uintptr_t compile_task_method(uint32_t tid);

#endif
