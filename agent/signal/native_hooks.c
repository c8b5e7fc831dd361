/*
 * [signal-safe] native_hooks: the hook bodies (native_hooks.h). Sampling is per thread: each thread counts
 * the bytes it allocated (or the time it waited) and records a sample at the call that makes the count
 * pass the next multiple of the interval, weighted by the whole intervals passed, so that 'total' adds up
 * to the bytes allocated (time waited), less one interval at most per thread. The stack is walked from the
 * hook's caller: the hook's own address on top (named as async-profiler names its hooks, malloc_hook:
 * native_hooks_leaf_name), then the call site, then everything down to the thread's root
 * (sample_record_call).
 */
#define _GNU_SOURCE
#include "native_hooks.h"

#include "call_site.h"

#include "clock_ns.h"
#include "sample.h"
#include "trace_store.h"

#include <errno.h>

native_hooks_state native_hooks;

static __thread struct {
    bool busy;            /* inside a recording: calls go straight to the real functions */
    uint64_t allocated;   /* bytes since this thread's last sample */
    uint64_t waited;      /* ns waited for locks since this thread's last sample */
} hook_thread __attribute__((tls_model("initial-exec")));


/* The thread's turn to sample after adding 'amount' (> 0) to its count: the weight of the sample (whole
 * intervals), or 0. The remainder is carried over, not dropped: restarting the count at the sampled call
 * would lock onto periodic allocation patterns (A 3000 B 500 B 500 repeated, sampled every 1 MiB, then
 * alternates between A and B and shows them 1:1 instead of 3:1); carried over, the samples fall on the
 * calls that contain each interval's boundary byte, in proportion to their bytes. */
static uint64_t take_turn(uint64_t *counter, uint64_t amount, uint64_t interval) {
    if (interval == 0) return amount;
    *counter += amount;
    if (*counter < interval) return 0;
    uint64_t weight = *counter - *counter % interval;
    *counter -= weight;
    return weight;
}

/* After a successful allocation of 'size' bytes at p. Inlined into each hook so CALL_SITE_OF_CALLER reads the
 * hook's frame. */
static inline __attribute__((always_inline)) void allocated(void *p, size_t size, const sample_call_site *site) {
    uint64_t weight = take_turn(&hook_thread.allocated, size ? size : 1, native_hooks.mem_interval);
    if (!weight) return;
    int saved_errno = errno;
    hook_thread.busy = true;
    uint64_t ref = TRACE_STORE_NO_REF;
    leak_table *leaks = native_hooks.leaks;
    trace_store_native native = {(uintptr_t)p, size};
    if (sample_record_call(site, EVENT_NATIVEMEM, weight, &native, &ref) && leaks)
        leak_table_put(leaks, (uintptr_t)p, ref, weight);
    hook_thread.busy = false;
    errno = saved_errno;
}

static bool recording_memory(void) {
    return atomic_load_explicit(&native_hooks.mem_on, memory_order_relaxed) && !hook_thread.busy;
}

/* Before p is freed (or reallocated): a tracked allocation no longer leaks, and a recording learns it was
 * freed (only frees of recorded allocations: the others cannot match any profiler.Malloc). Must run before
 * the real free, after which another thread may be given the same address. */
static void freeing(void *p) {
    leak_table *leaks = native_hooks.leaks;
    if (!p || !leaks) return;
    uint64_t ref, weight;
    if (!leak_table_remove(leaks, (uintptr_t)p, &ref, &weight)) return;
    if (native_hooks.subtract_freed) trace_store_subtract(ref, weight);
    if (native_hooks.free_events) {
        int saved_errno = errno;
        sample_record_free(EVENT_NATIVEMEM, (uintptr_t)p);
        errno = saved_errno;
    }
}

void *native_hook_malloc(size_t size) {
    void *p = native_hooks.real.malloc(size);
    if (p && recording_memory()) {
        sample_call_site site = CALL_SITE_OF_CALLER(native_hook_malloc);
        allocated(p, size, &site);
    }
    return p;
}

void *native_hook_calloc(size_t count, size_t size) {
    void *p = native_hooks.real.calloc(count, size);
    if (p && recording_memory()) {
        sample_call_site site = CALL_SITE_OF_CALLER(native_hook_calloc);
        allocated(p, count * size, &site);   /* cannot overflow: calloc succeeded */
    }
    return p;
}

void *native_hook_realloc(void *old, size_t size) {
    if (old && recording_memory()) freeing(old);
    void *p = native_hooks.real.realloc(old, size);
    if (p && recording_memory()) {
        sample_call_site site = CALL_SITE_OF_CALLER(native_hook_realloc);
        allocated(p, size, &site);
    }
    return p;
}

void native_hook_free(void *p) {
    if (p && recording_memory()) freeing(p);
    native_hooks.real.free(p);
}

int native_hook_posix_memalign(void **out, size_t alignment, size_t size) {
    int rc = native_hooks.real.posix_memalign(out, alignment, size);
    if (rc == 0 && recording_memory()) {
        sample_call_site site = CALL_SITE_OF_CALLER(native_hook_posix_memalign);
        allocated(*out, size, &site);
    }
    return rc;
}

void *native_hook_aligned_alloc(size_t alignment, size_t size) {
    void *p = native_hooks.real.aligned_alloc(alignment, size);
    if (p && recording_memory()) {
        sample_call_site site = CALL_SITE_OF_CALLER(native_hook_aligned_alloc);
        allocated(p, size, &site);
    }
    return p;
}

static bool recording_locks(void) {
    return atomic_load_explicit(&native_hooks.lock_on, memory_order_relaxed) && !hook_thread.busy;
}

/* After a contended wait of 'waited' ns. */
static inline __attribute__((always_inline)) void waited(const void *lock, uint64_t ns, const sample_call_site *site) {
    atomic_fetch_add_explicit(&native_hooks.lock_waits, 1, memory_order_relaxed);
    uint64_t weight = take_turn(&hook_thread.waited, ns ? ns : 1, native_hooks.lock_interval);
    if (!weight) return;
    int saved_errno = errno;
    hook_thread.busy = true;
    trace_store_native native = {(uintptr_t)lock, 0};
    sample_record_call(site, EVENT_NATIVELOCK, weight, &native, NULL);
    hook_thread.busy = false;
    errno = saved_errno;
}

/* The lock is tried first: only a lock that would block is timed and recorded. Anything but EBUSY from the
 * try (taken, or an error the blocking call would also report; EOWNERDEAD: taken) is the answer. */
#define CONTENDED_LOCK(lock, try_fn, lock_fn, leaf)                 \
    do {                                                            \
        if (!recording_locks()) return lock_fn(lock);               \
        int rc_ = try_fn(lock);                                     \
        if (rc_ != EBUSY) return rc_;                               \
        uint64_t start_ = clock_mono_ns();                           \
        rc_ = lock_fn(lock);                                        \
        uint64_t ns_ = clock_mono_ns() - start_;                     \
        sample_call_site site_ = CALL_SITE_OF_CALLER(leaf);         \
        waited(lock, ns_, &site_);                                        \
        return rc_;                                                 \
    } while (0)

int native_hook_mutex_lock(pthread_mutex_t *m) {
    CONTENDED_LOCK(m, native_hooks.real.mutex_trylock, native_hooks.real.mutex_lock, native_hook_mutex_lock);
}

int native_hook_rwlock_rdlock(pthread_rwlock_t *l) {
    CONTENDED_LOCK(l, native_hooks.real.rwlock_tryrdlock, native_hooks.real.rwlock_rdlock, native_hook_rwlock_rdlock);
}

int native_hook_rwlock_wrlock(pthread_rwlock_t *l) {
    CONTENDED_LOCK(l, native_hooks.real.rwlock_trywrlock, native_hooks.real.rwlock_wrlock, native_hook_rwlock_wrlock);
}

const char *native_hooks_leaf_name(uintptr_t pc) {
    static const struct {
        void *hook;
        const char *name;
    } leaves[] = {
        {(void *)native_hook_malloc, "malloc_hook"},
        {(void *)native_hook_calloc, "calloc_hook"},
        {(void *)native_hook_realloc, "realloc_hook"},
        {(void *)native_hook_posix_memalign, "posix_memalign_hook"},
        {(void *)native_hook_aligned_alloc, "aligned_alloc_hook"},
        {(void *)native_hook_mutex_lock, "pthread_mutex_lock_hook"},
        {(void *)native_hook_rwlock_rdlock, "pthread_rwlock_rdlock_hook"},
        {(void *)native_hook_rwlock_wrlock, "pthread_rwlock_wrlock_hook"},
    };
    for (size_t i = 0; i < sizeof(leaves) / sizeof(leaves[0]); i++)
        if ((uintptr_t)leaves[i].hook == pc) return leaves[i].name;
    return NULL;
}
