/*
 * native_hooks_install: which symbols get which hook (native_hooks_install.h), the real functions the hooks
 * call (resolved once, through libprof's own imports, which are never patched), and the thread that hooks
 * objects loaded during a session.
 */
#define _GNU_SOURCE
#include "native_hooks_install.h"

#include "got_patch.h"
#include "log.h"
#include "native_hooks.h"
#include "periodic.h"

#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WATCH_PERIOD_NS 100000000L

static got_hook memory_hooks[6], lock_hooks[3];
static const got_hook *active;
static size_t active_count;
static periodic watcher;
static unsigned long long seen_adds;

static void resolve_real_functions(void) {
    static bool done;
    if (done) return;
    native_real_functions *r = &native_hooks.real;
    *r = (native_real_functions){malloc, calloc, realloc, free, posix_memalign, aligned_alloc,
                                 pthread_mutex_lock, pthread_mutex_trylock, pthread_rwlock_rdlock,
                                 pthread_rwlock_tryrdlock, pthread_rwlock_wrlock, pthread_rwlock_trywrlock};
    got_hook mem[] = {{"malloc", (void *)r->malloc, (void *)native_hook_malloc},
                      {"calloc", (void *)r->calloc, (void *)native_hook_calloc},
                      {"realloc", (void *)r->realloc, (void *)native_hook_realloc},
                      {"posix_memalign", (void *)r->posix_memalign, (void *)native_hook_posix_memalign},
                      {"aligned_alloc", (void *)r->aligned_alloc, (void *)native_hook_aligned_alloc},
                      {"free", (void *)r->free, (void *)native_hook_free}};
    got_hook lock[] = {{"pthread_mutex_lock", (void *)r->mutex_lock, (void *)native_hook_mutex_lock},
                       {"pthread_rwlock_rdlock", (void *)r->rwlock_rdlock, (void *)native_hook_rwlock_rdlock},
                       {"pthread_rwlock_wrlock", (void *)r->rwlock_wrlock, (void *)native_hook_rwlock_wrlock}};
    memcpy(memory_hooks, mem, sizeof(mem));
    memcpy(lock_hooks, lock, sizeof(lock));
    done = true;
}

/* The loader counts every object it ever added: a change means a dlopen since the last look. */
static int read_adds(struct dl_phdr_info *info, size_t size, void *arg) {
    if (size >= offsetof(struct dl_phdr_info, dlpi_adds) + sizeof(info->dlpi_adds))
        *(unsigned long long *)arg = info->dlpi_adds;
    return 1;
}

static unsigned long long loader_adds(void) {
    unsigned long long adds = 0;
    dl_iterate_phdr(read_adds, &adds);
    return adds;
}

static void watch_tick(void) {
    unsigned long long adds = loader_adds();
    if (adds == seen_adds) return;
    seen_adds = adds;
    got_patch_stats st;
    got_patch_install(active, active_count, &st);
    if (st.patched) log_debug("native hooks: %zu import slots hooked in objects loaded since", st.patched);
}

int native_hooks_install(native_hooks_kind kind, bool with_free, char *err, size_t errlen) {
    resolve_real_functions();
    active = kind == NATIVE_HOOKS_MEMORY ? memory_hooks : lock_hooks;
    /* free is last in the memory list: leaving it out is 'nofree'. */
    active_count = kind == NATIVE_HOOKS_MEMORY ? (with_free ? 6 : 5) : 3;
    seen_adds = loader_adds();
    got_patch_stats st;
    size_t hooked = got_patch_install(active, active_count, &st);
    if (st.failed) log_warn("native hooks: %zu import slots could not be made writable", st.failed);
    log_info("native hooks: %zu import slots hooked in %zu objects (%zu bound to other definitions, left alone)",
             hooked, st.objects, st.foreign);
    if (periodic_start(&watcher, WATCH_PERIOD_NS, watch_tick)) {
        got_patch_restore(active, active_count);
        snprintf(err, errlen, "native hooks: cannot start the thread that hooks libraries loaded later");
        return -1;
    }
    return (int)hooked;
}

void native_hooks_remove(void) {
    if (!active) return;
    periodic_stop(&watcher);
    size_t restored = got_patch_restore(active, active_count);
    log_debug("native hooks: %zu import slots restored", restored);
    active = NULL;
}

size_t native_hooks_count_installed(void) {
    resolve_real_functions();
    return got_patch_count_hooked(memory_hooks, 6) + got_patch_count_hooked(lock_hooks, 3);
}
