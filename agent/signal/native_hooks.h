/*
 * [signal-safe] native_hooks: the functions that stand in for malloc, calloc, realloc, free,
 * posix_memalign, aligned_alloc (nativemem) and pthread_mutex_lock, pthread_rwlock_rdlock/wrlock
 * (nativelock) in the import tables of the loaded objects (native_hooks_install.c puts them there). Each
 * calls the real function through the pointer saved when hooks were first installed, and records a sample
 * of the calling thread's whole stack when its turn comes.
 *
 * They may run on any thread, inside the allocator, in code a signal interrupted, during dlopen, before
 * the JVM is initialised, and after the profiler stopped (a thread may be inside one while its import
 * entry is restored): nothing here allocates, takes a lock that can block, or calls what it hooks except
 * the real function it stands for. A thread-local flag (initial-exec TLS: a fixed offset from the thread
 * pointer, no allocation on first use) makes a call made while recording go straight to the real function.
 */
#ifndef LIBPROF_NATIVE_HOOKS_H
#define LIBPROF_NATIVE_HOOKS_H

#include "leak_table.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The functions hooked, as the process resolves them (what libprof's own calls reach). */
typedef struct {
    void *(*malloc)(size_t);
    void *(*calloc)(size_t, size_t);
    void *(*realloc)(void *, size_t);
    void (*free)(void *);
    int (*posix_memalign)(void **, size_t, size_t);
    void *(*aligned_alloc)(size_t, size_t);
    int (*mutex_lock)(pthread_mutex_t *);
    int (*mutex_trylock)(pthread_mutex_t *);
    int (*rwlock_rdlock)(pthread_rwlock_t *);
    int (*rwlock_tryrdlock)(pthread_rwlock_t *);
    int (*rwlock_wrlock)(pthread_rwlock_t *);
    int (*rwlock_trywrlock)(pthread_rwlock_t *);
} native_real_functions;

typedef struct {
    /* Set once, before the first hook is installed, never changed: a hook running late still calls them. */
    native_real_functions real;
    /* The session's settings, written while its hooks are off. */
    uint64_t mem_interval;     /* bytes between samples; 0: every call */
    uint64_t lock_interval;    /* ns waited between samples; 0: every contended wait */
    leak_table *leaks;         /* live sampled allocations, when frees are recorded; NULL otherwise */
    bool subtract_freed;       /* 'leak': a freed allocation leaves the profile */
    bool free_events;          /* JFR: a freed allocation becomes a profiler.Free event */
    _Atomic bool mem_on, lock_on;
    _Atomic uint64_t lock_waits;   /* contended waits seen (sampled or not) */
} native_hooks_state;
extern native_hooks_state native_hooks;

void *native_hook_malloc(size_t size);
void *native_hook_calloc(size_t count, size_t size);
void *native_hook_realloc(void *p, size_t size);
void native_hook_free(void *p);
int native_hook_posix_memalign(void **out, size_t alignment, size_t size);
void *native_hook_aligned_alloc(size_t alignment, size_t size);
int native_hook_mutex_lock(pthread_mutex_t *m);
int native_hook_rwlock_rdlock(pthread_rwlock_t *l);
int native_hook_rwlock_wrlock(pthread_rwlock_t *l);

/* The name of a hook's own address, the leaf of its samples: the hooked function's name with "_hook"
 * (malloc_hook, pthread_mutex_lock_hook), as async-profiler names its hooks' frames; NULL for any other
 * address. Async-signal-safe. */
const char *native_hooks_leaf_name(uintptr_t pc);

#endif
