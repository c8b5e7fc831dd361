/*
 * [signal-safe] thread_filter: the threads a session started with `filter` samples, chosen through the
 * Java API (addThread / removeThread, async-profiler's filterThread0). A bitmap indexed by OS thread id,
 * like java_tids: the handler's question is one load. Without `filter` every thread is sampled and the
 * bitmap is only kept up to date, so a later session with `filter` starts from the threads added so far.
 */
#ifndef LIBPROF_THREAD_FILTER_H
#define LIBPROF_THREAD_FILTER_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Its signal-safe half: the bits to use, one per thread id below count. */
void thread_filter_use(_Atomic uint64_t *bits, size_t count);
void thread_filter_set(int tid, bool sampled);
/* Whether the session samples only the threads set above. */
void thread_filter_enable(bool on);
/* Async-signal-safe: true when the thread is to be sampled. */
bool thread_filter_allows(int tid);

#endif
