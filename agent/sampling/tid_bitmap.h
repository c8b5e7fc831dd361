/*
 * tid_bitmap: the storage of the signal path's sets of thread ids (java_tids, thread_filter): one bit per
 * possible thread id, sized by /proc/sys/kernel/pid_max, mapped once and never freed (handlers may read it
 * at any time). Outside signal handlers.
 */
#ifndef LIBPROF_TID_BITMAP_H
#define LIBPROF_TID_BITMAP_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

/* Maps zeroed bits for every thread id; their number in *count. NULL when the mapping fails. */
_Atomic uint64_t *tid_bitmap_map(size_t *count);

#endif
