/*
 * native_hooks_install: which symbols get which hook (native_hooks_install.h), the real functions the hooks
 * call (resolved once, through libprof's own imports, which are never patched), and the thread that hooks
 * objects loaded during a session.
 */
#define _GNU_SOURCE
#include "native_hooks_install.h"

#include "clock_ns.h"
#include "got_patch.h"
#include "jvm.h"
#include "loaded_object.h"
#include "log.h"
#include "native_hooks.h"
#include "periodic.h"
#include "sigtrap_guard.h"

#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WATCH_PERIOD_NS 100000000L

/* glibc exports it (signal() under its historical name) but declares it only for XPG4.2 without POSIX 2008. */
extern __sighandler_t bsd_signal(int signo, __sighandler_t handler);

#define MAX_KIND_HOOKS 8

/* Each kind's hooks; free is last in the memory list: leaving it out is 'nofree'. */
static got_hook kind_hooks[NATIVE_HOOKS_KINDS][MAX_KIND_HOOKS];
static size_t kind_size[NATIVE_HOOKS_KINDS];
/* The hooks of the kinds turned on (nativemem, nativelock and the SIGTRAP guard may run together), under
 * 'lock', which the watcher's rescans also hold so that a rescan never puts back a kind just removed. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static bool kind_on[NATIVE_HOOKS_KINDS], free_on;
static got_hook active[NATIVE_HOOKS_KINDS * MAX_KIND_HOOKS + 1];
/* dlopen, hooked in libjvm only while any kind is on: an object System.load or loadLibrary loads gets its
 * hooks before dlopen returns, so before its JNI_OnLoad or an init call right after. Only libjvm: glibc's
 * dlopen takes its caller's identity from its return address (whose RUNPATH is searched, where $ORIGIN
 * points, which namespace), which through the hook is libprof's; libjvm, like libprof, has no RPATH or
 * RUNPATH and passes absolute paths, so nothing it loads changes. */
static got_hook dlopen_hook;
/* In a process with no JVM, the main program's own dlopen too (a native program loading a library and calling
 * it at once), when the program has no RPATH or RUNPATH: then the search for a name without a slash is the
 * same from libprof, and the main namespace is the same. */
static got_hook main_dlopen_hook;
static void *(*real_dlopen)(const char *, int);
static void *hook_dlopen(const char *file, int mode);
static size_t active_count;
static periodic watcher;
static _Atomic unsigned long long seen_adds;   /* written under 'lock', read by the watcher without it */

/* The families the hooks must never split in an object (got_patch.h): every allocation and release function of
 * the C library's allocator, and every lock and unlock function of its mutexes and read-write locks, hooked or
 * not (an object whose own scope defines any of them keeps them all). */
static const char *const memory_family[] = {"malloc", "calloc", "realloc", "reallocarray", "free", "cfree",
    "posix_memalign", "aligned_alloc", "memalign", "valloc", "pvalloc", "malloc_usable_size", NULL};
static const char *const lock_family[] = {"pthread_mutex_lock", "pthread_mutex_trylock", "pthread_mutex_timedlock",
    "pthread_mutex_clocklock", "pthread_mutex_unlock", "pthread_rwlock_rdlock", "pthread_rwlock_tryrdlock",
    "pthread_rwlock_timedrdlock", "pthread_rwlock_clockrdlock", "pthread_rwlock_wrlock", "pthread_rwlock_trywrlock",
    "pthread_rwlock_timedwrlock", "pthread_rwlock_clockwrlock", "pthread_rwlock_unlock", NULL};

/* dl_iterate_phdr's visit: *arg set when the main program (the object with no name) has a DT_RPATH or
 * DT_RUNPATH. */
static int note_main_search_path(struct dl_phdr_info *object, size_t size, void *arg) {
    (void)size;
    if (object->dlpi_name && object->dlpi_name[0]) return 0;
    for (int i = 0; i < object->dlpi_phnum; i++) {
        if (object->dlpi_phdr[i].p_type != PT_DYNAMIC) continue;
        for (const ElfW(Dyn) *d = (const ElfW(Dyn) *)(object->dlpi_addr + object->dlpi_phdr[i].p_vaddr);
             d->d_tag != DT_NULL; d++)
            if (d->d_tag == DT_RPATH || d->d_tag == DT_RUNPATH) *(bool *)arg = true;
    }
    return 1;
}

static void resolve_real_functions(void) {
    static bool done;
    if (done) return;
    native_real_functions *r = &native_hooks.real;
    *r = (native_real_functions){malloc, calloc, realloc, free, posix_memalign, aligned_alloc,
                                 pthread_mutex_lock, pthread_mutex_trylock, pthread_rwlock_rdlock,
                                 pthread_rwlock_tryrdlock, pthread_rwlock_wrlock, pthread_rwlock_trywrlock};
    got_hook mem[] = {{"malloc", (void *)r->malloc, (void *)native_hook_malloc, NULL, memory_family},
                      {"calloc", (void *)r->calloc, (void *)native_hook_calloc, NULL, memory_family},
                      {"realloc", (void *)r->realloc, (void *)native_hook_realloc, NULL, memory_family},
                      {"posix_memalign", (void *)r->posix_memalign, (void *)native_hook_posix_memalign, NULL, memory_family},
                      {"aligned_alloc", (void *)r->aligned_alloc, (void *)native_hook_aligned_alloc, NULL, memory_family},
                      {"free", (void *)r->free, (void *)native_hook_free, NULL, memory_family}};
    got_hook locks[] = {{"pthread_mutex_lock", (void *)r->mutex_lock, (void *)native_hook_mutex_lock, NULL, lock_family},
                        {"pthread_rwlock_rdlock", (void *)r->rwlock_rdlock, (void *)native_hook_rwlock_rdlock, NULL, lock_family},
                        {"pthread_rwlock_wrlock", (void *)r->rwlock_wrlock, (void *)native_hook_rwlock_wrlock, NULL, lock_family}};
    sigtrap_guard_real *g = &sigtrap_guard_real_functions;
    /* sigset and sigignore are deprecated, but applications still call them: their imports are hooked too. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    *g = (sigtrap_guard_real){sigaction, signal, bsd_signal, __sysv_signal, sigset, sigignore};
#pragma GCC diagnostic pop
    got_hook signals[] = {{"sigaction", (void *)g->sigaction, (void *)sigtrap_guard_sigaction, NULL, NULL},
                          {"signal", (void *)g->signal, (void *)sigtrap_guard_signal, NULL, NULL},
                          {"bsd_signal", (void *)g->bsd_signal, (void *)sigtrap_guard_bsd_signal, NULL, NULL},
                          {"__sysv_signal", (void *)g->sysv_signal, (void *)sigtrap_guard_sysv_signal, NULL, NULL},
                          {"sysv_signal", (void *)g->sysv_signal, (void *)sigtrap_guard_sysv_signal, NULL, NULL},
                          {"ssignal", (void *)g->signal, (void *)sigtrap_guard_signal, NULL, NULL},   /* glibc: signal */
                          {"sigset", (void *)g->sigset, (void *)sigtrap_guard_sigset, NULL, NULL},
                          {"sigignore", (void *)g->sigignore, (void *)sigtrap_guard_sigignore, NULL, NULL}};
    memcpy(kind_hooks[NATIVE_HOOKS_MEMORY], mem, sizeof(mem));
    memcpy(kind_hooks[NATIVE_HOOKS_LOCKS], locks, sizeof(locks));
    memcpy(kind_hooks[NATIVE_HOOKS_SIGNALS], signals, sizeof(signals));
    kind_size[NATIVE_HOOKS_MEMORY] = sizeof(mem) / sizeof(*mem);
    kind_size[NATIVE_HOOKS_LOCKS] = sizeof(locks) / sizeof(*locks);
    kind_size[NATIVE_HOOKS_SIGNALS] = sizeof(signals) / sizeof(*signals);
    real_dlopen = dlopen;
    dlopen_hook = (got_hook){"dlopen", (void *)real_dlopen, (void *)hook_dlopen, "/libjvm.so", NULL};
    bool main_search_path = false;
    dl_iterate_phdr(note_main_search_path, &main_search_path);
    if (!main_search_path)
        main_dlopen_hook = (got_hook){"dlopen", (void *)real_dlopen, (void *)hook_dlopen, got_patch_main_program, NULL};
    pthread_atfork(NULL, NULL, sigtrap_guard_after_fork);
    done = true;
}

void native_hooks_set_window(const got_hook *hooks, size_t count) {
    pthread_mutex_lock(&lock);
    kind_size[NATIVE_HOOKS_WINDOW] = count < MAX_KIND_HOOKS ? count : MAX_KIND_HOOKS;
    for (size_t i = 0; i < kind_size[NATIVE_HOOKS_WINDOW]; i++) kind_hooks[NATIVE_HOOKS_WINDOW][i] = hooks[i];
    pthread_mutex_unlock(&lock);
}

/* The list of hooks of the kinds on. Caller holds 'lock'. */
static void rebuild_active(void) {
    active_count = 0;
    for (int k = 0; k < NATIVE_HOOKS_KINDS; k++) {
        size_t n = k == NATIVE_HOOKS_MEMORY && !free_on ? kind_size[k] - 1 : kind_size[k];
        for (size_t i = 0; kind_on[k] && i < n; i++) active[active_count++] = kind_hooks[k][i];
    }
    bool no_jvm = !jvm_vm() && !loaded_object_find("libjvm.so", NULL, 0);
    got_patch_follow_data_pointers(no_jvm);   /* a native program's own function pointers, as async-profiler's */
    if (active_count) active[active_count++] = no_jvm && main_dlopen_hook.symbol ? main_dlopen_hook : dlopen_hook;
}

static bool any_kind_on(void) {
    for (int k = 0; k < NATIVE_HOOKS_KINDS; k++)
        if (kind_on[k]) return true;
    return false;
}

static unsigned long long loader_adds(void) {
    unsigned long long adds = 0;
    got_patch_loader_counts(&adds, NULL);
    return adds;
}

/* Hooks every loaded object's slots (those hooked already are left) and fills 'st'. Caller holds 'lock'. An
 * object another thread's dlopen is still relocating is left, and the watcher comes back for it; one still
 * left after PENDING_WAIT_NS with no object loaded meanwhile is taken (got_patch_install_waited). */
#define PENDING_WAIT_NS 1000000000ULL
static void rescan(got_patch_stats *st) {
    static uint64_t pending_since;
    static unsigned long long pending_adds;
    unsigned long long adds = loader_adds();
    bool waited = pending_since && adds == pending_adds && clock_mono_ns() - pending_since >= PENDING_WAIT_NS;
    if (waited) got_patch_install_waited(active, active_count, pending_adds, st);
    else got_patch_install(active, active_count, st);
    if (st->pending && (!pending_since || adds != pending_adds)) {
        pending_since = clock_mono_ns();
        pending_adds = adds;
    }
    if (!st->pending) pending_since = 0;
    seen_adds = st->pending ? 0 : adds;
}

/* Families left whole in objects loaded during the session: their calls are not profiled, which is said. */
static void report_families_left(const got_patch_stats *st) {
    if (st->families_left)
        log_info("native hooks: %zu function families left whole in objects loaded since (a member bound to another "
                 "definition, or defined in the object's own scope: an allocator or lock library of its own)",
                 st->families_left);
}

/* The watcher rescans once the loader's count of objects has changed and then stayed the same for a whole
 * period, or after ten periods of a steady stream of loads. An object still being relocated is safe either
 * way (got_patch leaves it, and it is retried), but waiting for a quiet moment lets the loader finish first. */
#define WATCH_MAX_WAIT_PERIODS 10
static void watch_tick(void) {
    static unsigned long long last_adds;
    static int waited;
    unsigned long long adds = loader_adds();
    bool settled = adds == last_adds;
    last_adds = adds;
    if (adds == seen_adds) {
        waited = 0;
        return;
    }
    if (!settled && ++waited < WATCH_MAX_WAIT_PERIODS) return;
    waited = 0;
    got_patch_stats st;
    pthread_mutex_lock(&lock);
    rescan(&st);
    pthread_mutex_unlock(&lock);
    if (st.patched) log_debug("native hooks: %zu import slots hooked in objects loaded since", st.patched);
    if (st.pending) log_debug("native hooks: %zu objects still being loaded, hooked later", st.pending);
    report_families_left(&st);
}

/* The object dlopen returned is relocated: hooked now, before its caller can call into it (what its
 * constructors did during dlopen, signal_watch finds). Waiting for the lock is safe: whoever holds it
 * (the watcher, an install) needs only the loader's write lock, which no thread holds after its dlopen
 * returned, even one nested in another object's constructor (that one holds the load lock). */
static void *hook_dlopen(const char *file, int mode) {
    void *handle = real_dlopen(file, mode);
    if (handle) {
        got_patch_stats st;
        pthread_mutex_lock(&lock);
        rescan(&st);
        pthread_mutex_unlock(&lock);
        report_families_left(&st);
    }
    return handle;
}

int native_hooks_install(native_hooks_kind kind, bool with_free, char *err, size_t errlen) {
    resolve_real_functions();
    pthread_mutex_lock(&lock);
    kind_on[kind] = true;
    if (kind == NATIVE_HOOKS_MEMORY) free_on = with_free;
    rebuild_active();
    got_patch_stats st;
    rescan(&st);
    size_t hooked = got_patch_count_hooked(kind_hooks[kind], kind_size[kind]);
    pthread_mutex_unlock(&lock);
    static const char *const names[NATIVE_HOOKS_KINDS] = {"native memory", "native lock", "SIGTRAP guard",
                                                          "sampling window"};
    if (st.failed) log_warn("%s hooks: %zu import slots could not be made writable", names[kind], st.failed);
    log_info("%s hooks: %zu import slots hooked in %zu objects (%zu bound to other definitions, left alone; "
             "%zu function families left whole)", names[kind], hooked, st.objects, st.foreign, st.families_left);
    if (periodic_start(&watcher, WATCH_PERIOD_NS, watch_tick)) {
        native_hooks_remove(kind);
        snprintf(err, errlen, "native hooks: cannot start the thread that hooks libraries loaded later");
        return -1;
    }
    return (int)hooked;
}

/* 'kind' off, its slots restored with 'restore', libjvm's dlopen too and the watcher stopped when no kind is
 * left. */
static void turn_off(native_hooks_kind kind, bool restore) {
    pthread_mutex_lock(&lock);
    if (!kind_on[kind]) {
        pthread_mutex_unlock(&lock);
        return;
    }
    kind_on[kind] = false;
    rebuild_active();
    size_t restored = restore ? got_patch_restore(kind_hooks[kind], kind_size[kind]) : 0;
    bool none = !any_kind_on();
    if (none) restored += got_patch_restore(&dlopen_hook, 1);
    if (none && main_dlopen_hook.symbol) restored += got_patch_restore(&main_dlopen_hook, 1);
    pthread_mutex_unlock(&lock);
    log_debug("native hooks: %zu import slots restored", restored);
    /* Outside the lock: a rescan waiting for it must be able to finish for the join. */
    if (none) periodic_stop(&watcher);
}

void native_hooks_release(native_hooks_kind kind) {
    turn_off(kind, false);
}

void native_hooks_remove(native_hooks_kind kind) {
    turn_off(kind, true);
}

size_t native_hooks_count_installed(void) {
    resolve_real_functions();
    return got_patch_count_hooked(kind_hooks[NATIVE_HOOKS_MEMORY], kind_size[NATIVE_HOOKS_MEMORY]) +
           got_patch_count_hooked(kind_hooks[NATIVE_HOOKS_LOCKS], kind_size[NATIVE_HOOKS_LOCKS]) +
           got_patch_count_hooked(&dlopen_hook, 1) +
           (main_dlopen_hook.symbol ? got_patch_count_hooked(&main_dlopen_hook, 1) : 0);
}
