/*
 * got_patch: redirects the calls loaded objects make to chosen library functions, by rewriting their
 * import table entries (the GOT slots of JUMP_SLOT and GLOB_DAT relocations, arch.h, naming the
 * function), and puts the entries back. Used by the native memory and lock hooks (native_hooks_install.c).
 *
 * A slot is rewritten only when it holds the function as the process resolves it, or the object's own lazy
 * binding stub (not called yet): an object bound to some other definition (its own allocator, a
 * DEEPBIND'ed copy) keeps it. Hooks of a family (an allocator's functions, a lock's) are written in an
 * object only if none of its slots of the family is bound elsewhere and its lazy ones would bind to the
 * process's definitions (got_scope.h); otherwise the whole family is left alone there, and counted. What a slot held is remembered and written back at restore, only into slots
 * that still hold our hook, of objects still loaded (both walks run under the loader's lock, so no object
 * is unloaded meanwhile). A page that is not writable is made writable for the write and put back as it was
 * (its protection read from /proc/self/maps). An object the loader has listed but not finished relocating
 * (its RELRO still writable, or its slots still as linked: another thread in dlopen) is left for a later
 * call. Nothing is written where /proc/self/maps cannot be read (the objects stay pending, slots hooked stay
 * hooked).
 *
 * Not signal-safe: runs on the profiler's threads (start, stop, the periodic rescan), serialised by a lock.
 */
#ifndef LIBPROF_GOT_PATCH_H
#define LIBPROF_GOT_PATCH_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    const char *symbol;   /* "malloc" */
    void *real;           /* what the process resolves it to */
    void *hook;           /* what calls should reach instead */
    const char *only_in;  /* NULL: every object; got_patch_main_program: the main program only; else only
                           * objects whose file name ends with it */
    /* NULL, or the functions (NULL-terminated) this one must never be split from: hooks of one family are
     * written in an object all together or not at all (see got_scope.h). */
    const char *const *family;
} got_hook;

/* got_hook.only_in for the main program (the object the loader names ""). */
extern const char got_patch_main_program[];

/* Whether the main program's data pointers to the hooked functions (ABS64 relocations: a function's address
 * stored in initialised data, `void *(*f)(size_t) = malloc`) are rewritten too; off by default. A program
 * comparing such a pointer with the function's address would see them differ. */
void got_patch_follow_data_pointers(bool on);

typedef struct {
    size_t objects;       /* loaded objects scanned (libprof, libc and the dynamic loader excluded) */
    size_t patched;       /* slots rewritten by this call */
    size_t foreign;       /* slots left alone: bound to another definition of the function */
    size_t failed;        /* slots that could not be made writable */
    size_t pending;       /* objects left because the loader is still relocating them: call again later */
    size_t families_left; /* families left whole in an object: a member bound elsewhere, or where its lazy
                           * slots would bind is not known to be the process's definition */
} got_patch_stats;

/* Rewrites the slots of every loaded object (but libprof itself, libc and the dynamic loader) for the
 * 'count' hooks; slots patched already are left as they are, so calling it again picks up objects loaded
 * since. Returns the number of slots that hold a hook afterwards. */
size_t got_patch_install(const got_hook *hooks, size_t count, got_patch_stats *stats);

/* The same for objects still pending after a wait (a second or more with no object loaded): relocation takes
 * milliseconds, so a RELRO still writable was left so by someone else (another import patcher); its slots are
 * written with no change of protection. 'adds': the loader's count of objects added (dlpi_adds) when the wait
 * began; if objects were added since, nothing is taken as waited for. */
size_t got_patch_install_waited(const got_hook *hooks, size_t count, unsigned long long adds, got_patch_stats *stats);

/* Writes back what every slot held before it was patched, wherever it still holds a hook of 'hooks'.
 * Returns the number of slots restored. */
size_t got_patch_restore(const got_hook *hooks, size_t count);

/* The loader's counts of objects ever added and removed (dlpi_adds, dlpi_subs): a change means a dlopen or
 * dlclose since the last look. Either pointer may be NULL. */
void got_patch_loader_counts(unsigned long long *adds, unsigned long long *subs);

/* The number of slots of loaded objects that hold one of the hooks now (for tests and the log). */
size_t got_patch_count_hooked(const got_hook *hooks, size_t count);

#endif
