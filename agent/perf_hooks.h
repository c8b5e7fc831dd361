/*
 * perf_hooks: the perf engine's part of the signal path. It owns the table that maps an event's
 * descriptor (siginfo si_fd) to its thread's state, so a handler finds its ring buffer with one load,
 * and it counts handlers inside the hooks, so the engine frees a thread's state only once none can
 * still read it. Called by engine_perf (publish, unpublish, wait) and by the sample handler (the hooks).
 */
#ifndef LIBPROF_PERF_HOOKS_H
#define LIBPROF_PERF_HOOKS_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    int tid;
    int fd;
    uint8_t *ring;        /* metadata page, then the data pages; NULL: no kernel frames for this thread */
    size_t ring_bytes;
} perf_thread;

/* Reserves the descriptor table once per process (handlers may read it at any time). -1 on failure. */
int perf_hooks_init(void);
/* Descriptors the table can hold: a larger one cannot be published. */
size_t perf_hooks_capacity(void);

void perf_hooks_publish(perf_thread *t);
/* Disables the event and hides it from handlers; 't' stays valid until perf_hooks_wait_idle returns. */
void perf_hooks_unpublish(perf_thread *t);
void perf_hooks_wait_idle(void);

/* engine hooks (async-signal-safe): see engine.h. */
int perf_hooks_kernel_frames(const siginfo_t *info, uintptr_t *out, int max);
void perf_hooks_after_sample(const siginfo_t *info);

#endif
