/*
 * [signal-safe] sigtrap_guard: keeps SIGTRAP ours while the perf events signal with it (perf_sigtrap.h),
 * without taking it from anyone. sigaction, signal and bsd_signal are hooked in the import tables of the
 * loaded objects (native_hooks_install.c, kind NATIVE_HOOKS_SIGNALS): while the guard is up, a call about
 * SIGTRAP reads and sets "the application's action" kept here instead of the process's disposition, which
 * stays our handler (__sysv_signal and sysv_signal, what signal() becomes in strict ISO C builds, ssignal,
 * and System V's sigset and sigignore too).
 * Every SIGTRAP that is not one of our events' (a breakpoint, a kill -TRAP, another
 * tool's event) then gets that action: the application's handler with its mask and flags (SA_SIGINFO,
 * SA_RESETHAND, SA_NODEFER; not SA_ONSTACK: it runs on our handler's stack), SIG_IGN, or the
 * default action. A query answers what the caller set, never our handler (set back, it means SIG_DFL); a
 * handler that chains back to ours anyway (one installed past the guard) gets the default action then, not
 * a loop. Once raised, the guard stays up for the life of the process, sessions or not (the hooks stay in
 * the slots patched): a signal of an event closed at the end of a session may still come, later, to a
 * thread that was asleep in a system call, and must not reach the application's handler.
 *
 * What it cannot see: a disposition set by a raw rt_sigaction system call (a Go runtime), or by an object
 * loaded less than 100-200 ms ago other than through the JVM's System.load (libjvm's dlopen is hooked: such
 * an object is hooked before dlopen returns); signal_watch
 * finds those (engine_perf's check_owned), the events go back to F_SETSIG and the guard comes down
 * (sigtrap_guard_end).
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
    __sighandler_t (*sysv_signal)(int, __sighandler_t);
    __sighandler_t (*sigset)(int, __sighandler_t);
    int (*sigignore)(int);
} sigtrap_guard_real;
extern sigtrap_guard_real sigtrap_guard_real_functions;

int sigtrap_guard_sigaction(int signo, const struct sigaction *act, struct sigaction *old);
__sighandler_t sigtrap_guard_signal(int signo, __sighandler_t handler);
__sighandler_t sigtrap_guard_bsd_signal(int signo, __sighandler_t handler);
__sighandler_t sigtrap_guard_sysv_signal(int signo, __sighandler_t handler);   /* sysv_signal, __sysv_signal */
__sighandler_t sigtrap_guard_sigset(int signo, __sighandler_t disposition);      /* System V's, SIG_HOLD too */
int sigtrap_guard_sigignore(int signo);

/* Raises the guard: SIGTRAP's disposition now (unless it is 'handler', ours, left by an earlier session)
 * becomes the application's action under the guard's lock (a hooked call from then on sets that action, not
 * the disposition), then 'install' installs ours, outside it. False if 'install' failed (the guard is down).
 * While up, a hooked call that finds the disposition no longer ours (set past the hooks) takes the guard down
 * and goes to the real function. */
bool sigtrap_guard_begin(void (*handler)(int, siginfo_t *, void *), int (*install)(void));

/* Lowers the guard: SIGTRAP was taken past it (its hooks then pass every call through). */
void sigtrap_guard_end(void);

/* In a child after fork: the lock may have been held by a thread that the child does not have. */
void sigtrap_guard_after_fork(void);

/* True while the guard is up (for the log and tests). */
bool sigtrap_guard_up(void);

/* A SIGTRAP that is not ours: what the application asked for (called from perf_sigtrap_handler). */
void sigtrap_guard_chain(int signo, siginfo_t *info, void *ucontext);

#endif
