/*
 * self_tid: the calling thread's kernel id (what /proc, perf and the thread filters count in). glibc has
 * gettid() only from 2.30; the system call works on every glibc we run on. Header-only and
 * async-signal-safe (one syscall, on agent/signal/'s allow-list).
 */
#ifndef LIBPROF_SELF_TID_H
#define LIBPROF_SELF_TID_H

#include <sys/syscall.h>
#include <unistd.h>

static inline int self_tid(void) {
    return (int)syscall(SYS_gettid);
}

#endif
