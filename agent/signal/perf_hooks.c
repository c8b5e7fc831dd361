/* [signal-safe] Runs in signal handlers: the hooks and the table they read; perf_hooks_init.c sets it up. */
/*
 * perf_hooks: a signal is ours when its code is POLL_IN or POLL_HUP (F_SETSIG delivery; POLL_HUP when
 * the one-shot event disabled itself) and its si_fd is published for the thread that received it. A
 * stale signal, whose event was released and whose descriptor number was reused since, finds NULL or
 * another thread's tid and is ignored.
 */
#define _GNU_SOURCE
#include "perf_hooks.h"

#include "perf_ring.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdatomic.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static perf_thread *_Atomic *by_fd;
/* System calls are dear in a handler (3 us each on a paravirtualised guest); a thread's id never changes.
 * Initial-exec TLS: a fixed offset from the thread pointer, so reading it never allocates. A forked child
 * keeps its parent's value, but no event of ours signals a child. */
static __thread int own_tid __attribute__((tls_model("initial-exec")));
static _Atomic int in_flight;
static size_t page_size;

void perf_hooks_use(perf_thread *_Atomic *table, size_t page) {
    page_size = page;
    atomic_store_explicit(&by_fd, table, memory_order_release);
}

void perf_hooks_publish(perf_thread *t) {
    atomic_store_explicit(&by_fd[t->fd], t, memory_order_release);
}

void perf_hooks_unpublish(perf_thread *t) {
    ioctl(t->fd, PERF_EVENT_IOC_DISABLE, 0);
    atomic_store_explicit(&by_fd[t->fd], NULL, memory_order_release);
}

int perf_hooks_in_flight(void) {
    return atomic_load_explicit(&in_flight, memory_order_acquire);
}

static perf_thread *enter(const siginfo_t *info) {
    atomic_fetch_add_explicit(&in_flight, 1, memory_order_acquire);
    if (!info || (info->si_code != POLL_IN && info->si_code != POLL_HUP)) return NULL;
    perf_thread *_Atomic *table = atomic_load_explicit(&by_fd, memory_order_acquire);
    if (!table || info->si_fd < 0 || info->si_fd >= PERF_HOOKS_TABLE_MAX) return NULL;
    perf_thread *t = atomic_load_explicit(&table[info->si_fd], memory_order_acquire);
    if (!t) return NULL;
    if (!own_tid) own_tid = (int)syscall(SYS_gettid);
    return t->tid == own_tid ? t : NULL;
}

static void leave(void) {
    atomic_fetch_sub_explicit(&in_flight, 1, memory_order_release);
}

int perf_hooks_kernel_frames(const siginfo_t *info, uintptr_t *out, int max) {
    int saved_errno = errno, n = 0;
    perf_thread *t = enter(info);
    if (t && t->ring) {
        struct perf_event_mmap_page *meta = (struct perf_event_mmap_page *)t->ring;
        uint64_t head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
        uint64_t tail = __atomic_load_n(&meta->data_tail, __ATOMIC_RELAXED);
        n = perf_ring_newest_kernel_frames(t->ring + page_size, t->ring_bytes - page_size, tail, head, out, max);
    }
    leave();
    errno = saved_errno;
    return n > 0 ? n : 0;
}

void perf_hooks_prefetch_kernel_frames(const siginfo_t *info) {
    int saved_errno = errno;
    perf_thread *t = enter(info);
    if (t && t->ring) {
        const struct perf_event_mmap_page *meta = (const struct perf_event_mmap_page *)t->ring;
        __builtin_prefetch(&meta->data_head);
        /* The newest record is nearly always the only one, where the previous handler consumed to. */
        const uint8_t *record = t->ring + page_size + (t->consumed & (t->ring_bytes - page_size - 1));
        __builtin_prefetch(record);
        __builtin_prefetch(record + 64);
    }
    leave();
    errno = saved_errno;
}

void perf_hooks_after_sample(const siginfo_t *info) {
    int saved_errno = errno;
    perf_thread *t = enter(info);
    if (t) {
        if (t->ring) {
            /* Consume everything, read or not, so the next signal finds exactly its own record. */
            struct perf_event_mmap_page *meta = (struct perf_event_mmap_page *)t->ring;
            t->consumed = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
            __atomic_store_n(&meta->data_tail, t->consumed, __ATOMIC_RELEASE);
        }
        ioctl(t->fd, PERF_EVENT_IOC_REFRESH, 1);
        atomic_fetch_add_explicit(&t->fired, 1, memory_order_relaxed);
    }
    leave();
    errno = saved_errno;
}
