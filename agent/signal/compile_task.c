/*
 * [signal-safe] compile_task: see compile_task.h.
 */
#include "compile_task.h"

#include "codeblob.h"
#include "safe_read.h"

#include <stdatomic.h>

static compile_task_layout layout;
static _Atomic bool layout_set;

void compile_task_set_layout(const compile_task_layout *l) {
    layout = *l;
    atomic_store_explicit(&layout_set, true, memory_order_release);
}

bool compile_task_entry(uintptr_t pc) {
    if (!atomic_load_explicit(&layout_set, memory_order_acquire)) return false;
    for (int i = 0; i < COMPILE_TASK_ENTRIES; i++) {
        if (pc >= layout.entry_low[i] && pc < layout.entry_high[i]) return true;
    }
    return false;
}

/* The compiler thread's JavaThread, found once (its own, for the thread's life). */
static __thread uintptr_t own_thread __attribute__((tls_model("initial-exec")));

/* More JavaThreads than any JVM runs: a length above it is no live list. */
#define MAX_THREADS 100000

static uintptr_t find_thread(uint32_t tid) {
    uintptr_t list, threads, length, thread, os;
    int64_t id;
    if (!safe_read_word(layout.thread_list_at, &list) || !list || !safe_read_word(list + layout.list_threads, &threads) ||
        !threads || !codeblob_read_field(list + layout.list_length, 4, (int64_t *)&length))
        return 0;
    length &= 0xffffffffu;
    for (uintptr_t i = 0; i < length && i < MAX_THREADS; i++) {
        if (!safe_read_word(threads + i * sizeof(uintptr_t), &thread)) return 0;
        if (thread && safe_read_word(thread + layout.osthread, &os) && os &&
            codeblob_read_field(os + layout.os_tid, 4, &id) && (uint32_t)id == tid)
            return thread;
    }
    return 0;
}

uintptr_t compile_task_method(uint32_t tid) {
    uintptr_t env, task, method;
    if (!atomic_load_explicit(&layout_set, memory_order_acquire)) return 0;
    if (!own_thread) own_thread = find_thread(tid);
    uintptr_t thread = own_thread;
    if (!thread || !safe_read_word(thread + layout.thread_env, &env) || !env || !safe_read_word(env + layout.env_task, &task) ||
        !task || !safe_read_word(task + layout.task_method, &method))
        return 0;
    return method;
}
