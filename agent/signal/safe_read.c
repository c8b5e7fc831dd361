/* [signal-safe] Runs in signal handlers (safe_read_word and the notes the handler takes); its set-up half,
 * the thread stack bounds from pthread, is safe_read_stack.c. */
/*
 * safe_read: reads a word that may not be mapped, by one of three mechanisms (safe_read_mode.c picks one
 * when profiling starts and says which):
 * - fault: a load whose fault our own SIGSEGV/SIGBUS handler recovers (safe_fault.c). No system call,
 *   so no seccomp filter can forbid it, and a good address costs a plain load. The default.
 * - syscall: the kernel copies the word with process_vm_readv on our own pid and answers EFAULT for an
 *   unmapped address. A system call per read (microseconds on a virtual machine), and a seccomp filter
 *   that forbids it kills the process: used only when the fault handler cannot be installed and the
 *   process has no seccomp filter.
 * - bounded: only what is proven readable without either: the interrupted thread's own stack, whose bounds
 *   were recorded when the thread started (initial-exec TLS: a fixed offset from the thread pointer, no
 *   allocation on access), and the regions the JVM registered as never unmapped (the committed part of its
 *   code heaps, whose end only grows: HotSpot never uncommits code cache memory). Everything else reads as
 *   invalid, so walks end earlier.
 * The syscall and bounded mechanisms use those bounds first, and so does fault when the interrupted thread
 * blocks SIGSEGV or SIGBUS (a fault there would kill the process, not reach our handler).
 */
#define _GNU_SOURCE
#include "safe_read.h"

#include "safe_fault.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

static __thread struct {
    uintptr_t low, high;
    bool probed;        /* bounds found by probing (threads the JVM did not report) */
    bool faults_blocked; /* the interrupted code blocks SIGSEGV or SIGBUS: no fault may be taken */
} own_stack __attribute__((tls_model("initial-exec")));

static _Atomic int mechanism = SAFE_READ_SYSCALL;

void safe_read_set_mechanism(safe_read_mechanism m) {
    atomic_store(&mechanism, (int)m);
}

safe_read_mechanism safe_read_get_mechanism(void) {
    return (safe_read_mechanism)atomic_load(&mechanism);
}

void safe_read_note_signal_mask(const sigset_t *interrupted) {
    own_stack.faults_blocked = sigismember(interrupted, SIGSEGV) == 1 || sigismember(interrupted, SIGBUS) == 1;
}

/* The mechanism this read may use on this thread now. */
static safe_read_mechanism usable_mechanism(void) {
    safe_read_mechanism m = (safe_read_mechanism)atomic_load_explicit(&mechanism, memory_order_relaxed);
    if (m == SAFE_READ_FAULT && own_stack.faults_blocked) return SAFE_READ_BOUNDED;
    return m;
}

#define MAX_REGIONS 32
static struct {
    uintptr_t low;
    const uintptr_t *high_at;
} regions[MAX_REGIONS];
static _Atomic int region_count;

#define PAGE 4096UL
#define PROBE_PAGES 256   /* 1 MiB above the stack pointer, in one system call */

/* A thread the JVM never reported (GC workers, JIT compilers, native threads) has no recorded bounds, and
 * a system call per read would make its deep stacks slow to walk (each costs microseconds on a virtual
 * machine). So once per thread, find which pages from the stack pointer upward are readable: one word per
 * page, stopping at the first unmapped one, in one process_vm_readv.
 * Everything from the stack pointer to there is then known good, and stays so while the thread lives. */
static void probe_stack_above(uintptr_t sp) {
    /* Fault-tolerant loads need no bounds, and without system calls there is no way to probe. */
    if (usable_mechanism() != SAFE_READ_SYSCALL) return;
    own_stack.probed = true;
    uintptr_t start = sp & ~(PAGE - 1);
    struct iovec remote[PROBE_PAGES];
    uintptr_t words[PROBE_PAGES];
    struct iovec local = {words, sizeof(words)};
    for (int i = 0; i < PROBE_PAGES; i++) remote[i] = (struct iovec){(void *)(start + i * PAGE), sizeof(uintptr_t)};
    int saved = errno;
    long n = syscall(SYS_process_vm_readv, (long)getpid(), &local, 1UL, remote, (unsigned long)PROBE_PAGES, 0UL);
    errno = saved;
    if (n <= 0) return;
    own_stack.low = start;
    own_stack.high = start + (uintptr_t)(n / (long)sizeof(uintptr_t)) * PAGE;
}

void safe_read_note_stack_pointer(uintptr_t sp) {
    if (!own_stack.high) {
        if (!own_stack.probed) probe_stack_above(sp);
        return;
    }
    /* The live stack pointer is always inside the thread's stack: deeper frames extend the known range. */
    uintptr_t page = sp & ~(PAGE - 1);
    if (page < own_stack.low && own_stack.low - page < (8UL << 20)) own_stack.low = page;
}

void safe_read_set_thread_stack(uintptr_t low, uintptr_t high) {
    own_stack.low = low;
    own_stack.high = high;
}

int safe_read_add_growing_region(uintptr_t low, const uintptr_t *high_at) {
    int n = atomic_load(&region_count);
    if (n >= MAX_REGIONS) return -1;
    regions[n].low = low;
    regions[n].high_at = high_at;
    atomic_store(&region_count, n + 1);
    return 0;
}

static uintptr_t fixed_highs[MAX_REGIONS];   /* the high ends of fixed regions: their high_at points here */

int safe_read_add_fixed_region(uintptr_t low, uintptr_t high) {
    int n = atomic_load(&region_count);
    if (n >= MAX_REGIONS) return -1;
    fixed_highs[n] = high;
    return safe_read_add_growing_region(low, &fixed_highs[n]);
}

static bool in_vm_region(uintptr_t addr) {
    int n = atomic_load_explicit(&region_count, memory_order_acquire);
    for (int i = 0; i < n; i++) {
        uintptr_t high = __atomic_load_n(regions[i].high_at, __ATOMIC_ACQUIRE);
        if (addr >= regions[i].low && addr + sizeof(uintptr_t) <= high) return true;
    }
    return false;
}

bool safe_read_word(uintptr_t addr, uintptr_t *out) {
    if (addr < 4096 || (addr & (sizeof(uintptr_t) - 1))) return false;
    safe_read_mechanism m = usable_mechanism();
    if (m == SAFE_READ_FAULT) return safe_fault_load(addr, out);
    if ((addr >= own_stack.low && addr + sizeof(uintptr_t) <= own_stack.high) || in_vm_region(addr)) {
        *out = *(const uintptr_t *)addr;
        return true;
    }
    if (m == SAFE_READ_BOUNDED) return false;
    int saved = errno;
    struct iovec local = {out, sizeof(*out)};
    struct iovec remote = {(void *)addr, sizeof(*out)};
    long n = syscall(SYS_process_vm_readv, (long)getpid(), &local, 1UL, &remote, 1UL, 0UL);
    errno = saved;
    return n == (long)sizeof(*out);
}
