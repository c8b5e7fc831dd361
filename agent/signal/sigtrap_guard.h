/*
 * [signal-safe] sigtrap_guard: keeps SIGTRAP ours while the perf events signal with it (perf_sigtrap.h),
 * without taking it from anyone. sigaction, signal and bsd_signal are hooked in the import tables of the
 * loaded objects (native_hooks_install.c, kind NATIVE_HOOKS_SIGNALS): while the guard is up, a call about
 * SIGTRAP reads and sets "the application's action" kept here instead of the process's disposition, which
 * stays our handler. Every SIGTRAP that is not one of our events' (a breakpoint, a kill -TRAP, another
 * tool's event) then gets that action: the application's handler with its mask and flags, SIG_IGN, or the
 * default action. A query answers what the caller set (never our handler, so a handler that chains to "the
 * previous one" never chains back to ours). When the guard comes down the application's action becomes
 * the real disposition again (sigtrap_guard_end).
 *
 * What it cannot see: a disposition set by a raw rt_sigaction system call (a Go runtime), from libc itself,
 * or by an object loaded less than 100 ms ago; signal_watch finds those (engine_perf's check_owned) and the
 * events go back to F_SETSIG.
 *
 * The hooks may run on any thread, in a signal handler (sigaction is async-signal-safe) and after the
 * session: the state is under a spin lock held with every signal blocked, for a few instructions.
 */
#ifndef LIBPROF_SIGTRAP_GUARD_H
#define LIBPROF_SIGTRAP_GUARD_H

#include <signal.h>
#include <stdbool.h>

/* The functions hooked as the process resolves them (libprof's own imports, never patched). Set before the
 * hooks are first installed. */
typedef struct {
    int (*sigaction)(int, const struct sigaction *, struct sigaction *);
    __sighandler_t (*signal)(int, __sighandler_t);
    __sighandler_t (*bsd_signal)(int, __sighandler_t);
} sigtrap_guard_real;
extern sigtrap_guard_real sigtrap_guard_real_functions;

int sigtrap_guard_sigaction(int signo, const struct sigaction *act, struct sigaction *old);
__sighandler_t sigtrap_guard_signal(int signo, __sighandler_t handler);
__sighandler_t sigtrap_guard_bsd_signal(int signo, __sighandler_t handler);

/* Raises the guard: SIGTRAP's disposition now (unless it is 'ours', left by an earlier session) becomes the
 * application's action; the caller installs 'ours' right after. */
void sigtrap_guard_begin(void (*ours)(int, siginfo_t *, void *));

/* Lowers the guard. If the disposition is still 'ours' and the application set an action of its own, that
 * action is installed for real. Returns true if it was (our handler no longer receives SIGTRAP). */
bool sigtrap_guard_end(void (*ours)(int, siginfo_t *, void *));

/* True while the guard is up (for the log and tests). */
bool sigtrap_guard_up(void);

/* A SIGTRAP that is not ours: what the application asked for (called from perf_sigtrap_handler). */
void sigtrap_guard_chain(int signo, siginfo_t *info, void *ucontext);

#endif
