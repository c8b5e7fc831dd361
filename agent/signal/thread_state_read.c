/*
 * [signal-safe] thread_state_read: see thread_state_read.h. The JavaThread and OSThread read here are the
 * interrupted thread's own, alive while it runs its handler: plain reads, no safe_read needed. The
 * instruction bytes at the interrupted pc are code the thread was executing, but the word around them may
 * end on an unmapped page, so they go through safe_read.
 */
#define _GNU_SOURCE
#include "thread_state_read.h"

#include "arch.h"
#include "safe_read.h"
#include "thread_state.h"

#include <errno.h>
#include <stdatomic.h>
#include <ucontext.h>

static thread_state_layout layout;
static _Atomic bool have_layout;

void thread_state_set_layout(const thread_state_layout *l) {
    layout = *l;
    atomic_store(&have_layout, true);
}

/* True when the registers say the thread was waiting in a system call: the kernel put the pc back on the
 * system call instruction (arch.h: x86_64's 2-byte `syscall`, aarch64's `svc #0`) to restart it after the
 * handler, or left it after one that returns -EINTR. */
/* The little-endian value of the ARCH_SYSCALL_INSN_BYTES bytes at addr (safe_read reads aligned words only). */
static bool read_insn(uintptr_t addr, unsigned *out) {
    const unsigned bits = ARCH_SYSCALL_INSN_BYTES * 8;
    uintptr_t base = addr & ~(uintptr_t)7, lo, hi = 0;
    unsigned shift = (unsigned)(addr - base) * 8;
    if (!safe_read_word(base, &lo)) return false;
    if (shift + bits > 64 && !safe_read_word(base + 8, &hi)) return false;
    uint64_t value = shift + bits > 64 ? (lo >> shift) | (hi << (64 - shift)) : lo >> shift;
    *out = (unsigned)(value & ((1ull << bits) - 1));
    return true;
}

static bool in_syscall(const void *ucontext) {
    if (!ucontext) return false;
    const ucontext_t *uc = ucontext;
    uintptr_t pc = arch_uc_pc(uc);
    unsigned at, before;
    if (pc < 4096) return false;
    if (read_insn(pc, &at) && at == ARCH_SYSCALL_INSN) return true;
    return arch_uc_result(uc) == -EINTR && read_insn(pc - ARCH_SYSCALL_INSN_BYTES, &before) &&
           before == ARCH_SYSCALL_INSN;
}

static int read_int(uintptr_t base, uint64_t offset) {
    return *(volatile const int *)(base + offset);
}

/* True when the leaf Java frame is Thread.sleep's native method. */
static bool in_sleep(const trace_frame *frames, uint32_t depth) {
    for (uint32_t i = 0; i < depth; i++) {
        if (!frame_kind_is_java(frames[i].kind)) continue;   /* any Java frame: typed by cstack=vm, or not */
        for (int m = 0; m < 3; m++)
            if (frames[i].id && frames[i].id == layout.sleep_methods[m]) return true;
        return false;
    }
    return false;
}

/* Why a blocked Java thread waits, from its OSThread (and its stack: sleep and park wait alike). */
static int blocked_state(uintptr_t java_thread, const trace_frame *frames, uint32_t depth) {
    uintptr_t osthread = *(volatile const uintptr_t *)(java_thread + layout.osthread_offset);
    if (!osthread) return THREAD_STATE_SLEEPING;
    int s = read_int(osthread, layout.os_state_offset);
    if (s == layout.os_monitor_wait) return THREAD_STATE_BLOCKED;
    if (s == layout.os_object_wait) return THREAD_STATE_WAITING;
    if (s == layout.os_condvar_wait) return in_sleep(frames, depth) ? THREAD_STATE_SLEEPING : THREAD_STATE_PARKED;
    return THREAD_STATE_SLEEPING;   /* SLEEPING, and the VM's own waits (safepoints, GC) */
}

int thread_state_read(const void *ucontext, JNIEnv *env, const trace_frame *frames, uint32_t depth) {
    bool syscall = in_syscall(ucontext);
    if (!env || !atomic_load_explicit(&have_layout, memory_order_acquire))
        return syscall ? THREAD_STATE_SYSCALL : THREAD_STATE_RUNNABLE;
    uintptr_t java_thread = (uintptr_t)env - layout.env_offset;
    int s = read_int(java_thread, layout.java_state_offset);
    if (s == layout.blocked || s == layout.blocked_trans) return blocked_state(java_thread, frames, depth);
    if (syscall) return THREAD_STATE_SYSCALL;
    if (s == layout.in_native || s == layout.in_native_trans) return THREAD_STATE_NATIVE;
    return THREAD_STATE_RUNNABLE;
}
