/*
 * native_hooks_install: puts the native memory and lock hooks (signal/native_hooks.h), or the SIGTRAP
 * guard's (signal/sigtrap_guard.h), into the import tables of every loaded object (got_patch.h) at start, into objects loaded later (a thread notices a
 * dlopen within 100 ms by the loader's own count of objects added), and takes them out at stop. Used by
 * the nativemem and nativelock engines and by the perf engine's SIGTRAP delivery; not signal-safe.
 */
#ifndef LIBPROF_NATIVE_HOOKS_INSTALL_H
#define LIBPROF_NATIVE_HOOKS_INSTALL_H

#include "got_patch.h"

#include <stdbool.h>
#include <stddef.h>

typedef enum {
    NATIVE_HOOKS_MEMORY, NATIVE_HOOKS_LOCKS, NATIVE_HOOKS_SIGNALS,
    NATIVE_HOOKS_WINDOW,   /* begin=/end=: the functions native_hooks_set_window names */
    NATIVE_HOOKS_KINDS
} native_hooks_kind;

/* The window kind's hooks (window_hooks.h): up to two, before native_hooks_install(NATIVE_HOOKS_WINDOW). */
void native_hooks_set_window(const got_hook *hooks, size_t count);

/* Installs the hooks of 'kind' ('with_free': free too, for nativemem) beside those of the other kinds that
 * are on, and starts watching for new objects.
 * Returns the number of import slots that hold a hook of 'kind', or -1 with the reason in err. */
int native_hooks_install(native_hooks_kind kind, bool with_free, char *err, size_t errlen);

/* Restores every slot hooked for 'kind', and stops watching when no kind is left. A thread inside a hook
 * finishes normally: the hook code and the real functions stay. */
void native_hooks_remove(native_hooks_kind kind);

/* Stops hooking objects loaded later for 'kind' but leaves its slots hooked (the SIGTRAP guard's stay for
 * the life of the process, sigtrap_guard.h). */
void native_hooks_release(native_hooks_kind kind);

/* Import slots of loaded objects that hold a native memory or lock hook (or libjvm's dlopen hook) now. */
size_t native_hooks_count_installed(void);

#endif
