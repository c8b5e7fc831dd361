/* [signal-safe] sigtrap_guard: see sigtrap_guard.h. */
#define _GNU_SOURCE
#include "sigtrap_guard.h"

#include "default_action.h"
#include "perf_sigtrap.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

sigtrap_guard_real sigtrap_guard_real_functions;

static atomic_flag busy = ATOMIC_FLAG_INIT;
static bool up;                     /* under 'busy' */
static struct sigaction app;        /* the application's action, under 'busy'; zero: SIG_DFL */
static void (*ours)(int, siginfo_t *, void *);   /* our handler, set by sigtrap_guard_begin */

static bool armed;                  /* our handler installed since the guard went up, under 'busy' */

/* Inside the application's handler, called from ours, on this thread: the siginfo it was given and our
 * chaining frame. A handler that chains to "the previous one" and was given ours (installed past the guard)
 * calls ours again with that siginfo from deeper in the stack; that would go on for ever. A new SIGTRAP has a
 * siginfo of its own, so a handler left by siglongjmp does not leave the thread marked. Initial-exec TLS. */
static __thread struct {
    const siginfo_t *info;
    uintptr_t frame;
} chaining __attribute__((tls_model("initial-exec")));

/* Every signal is blocked while the lock is held: a handler on the same thread that called sigaction
 * could otherwise spin forever on a lock its own thread holds. */
static void lock(sigset_t *saved) {
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, saved);
    while (atomic_flag_test_and_set_explicit(&busy, memory_order_acquire)) {
    }
}

static void unlock(const sigset_t *saved) {
    atomic_flag_clear_explicit(&busy, memory_order_release);
    pthread_sigmask(SIG_SETMASK, saved, NULL);
}

static bool is_ours(const struct sigaction *a) {
    return (a->sa_flags & SA_SIGINFO) && ours && a->sa_sigaction == ours;
}

/* Under 'busy': the guard keeps SIGTRAP only while the disposition is ours. Someone who set it past the
 * hooks (between sessions nothing watches) owns it: from then on every call goes to the real sigaction. */
static bool guarding(void) {
    struct sigaction now;
    if (up && armed && sigtrap_guard_real_functions.sigaction(SIGTRAP, NULL, &now) == 0 && !is_ours(&now))
        up = false;
    return up;
}

/* The application's new action; our own handler handed back (a "previous handler" restored) means none. */
static void set_app(const struct sigaction *act) {
    app = *act;
    if (is_ours(&app)) {
        memset(&app, 0, sizeof(app));
        app.sa_handler = SIG_DFL;
    }
}

/* SIGTRAP's action exchanged, as sigaction does: the application's while the guard is up, else the real
 * disposition (under the lock: sigtrap_guard_begin cannot come between this and the disposition it sets).
 * 'act' and 'was' are the caller's copies (a bad pointer of the application's faults before the lock, as in
 * sigaction itself, not with every signal blocked). Returns 0 or -1 with errno, as sigaction. */
static int exchange(const struct sigaction *act, struct sigaction *was) {
    sigset_t saved;
    lock(&saved);
    int rc = 0;
    if (!guarding()) {
        rc = sigtrap_guard_real_functions.sigaction(SIGTRAP, act, was);
    } else {
        *was = app;
        if (act) set_app(act);
    }
    int saved_errno = errno;
    unlock(&saved);
    errno = saved_errno;
    return rc;
}

int sigtrap_guard_sigaction(int signo, const struct sigaction *act, struct sigaction *old) {
    if (signo != SIGTRAP) return sigtrap_guard_real_functions.sigaction(signo, act, old);
    struct sigaction given, was;
    if (act) given = *act;
    int rc = exchange(act ? &given : NULL, &was);
    if (rc == 0 && old) *old = was;
    return rc;
}

/* signal() and its variants: 'flags' and, with 'block_self', the signal blocked in its handler. */
static __sighandler_t set_handler(int signo, __sighandler_t handler, __sighandler_t (*real)(int, __sighandler_t),
                                  int flags, bool block_self) {
    if (signo != SIGTRAP) return real(signo, handler);
    if (handler == SIG_ERR) {
        errno = EINVAL;
        return SIG_ERR;
    }
    struct sigaction act, was;
    memset(&act, 0, sizeof(act));
    act.sa_handler = handler;
    act.sa_flags = flags;
    sigemptyset(&act.sa_mask);
    if (block_self) sigaddset(&act.sa_mask, SIGTRAP);
    /* sa_sigaction shares sa_handler's storage: the same address either way */
    return exchange(&act, &was) == 0 ? was.sa_handler : SIG_ERR;
}

/* BSD semantics, as glibc's signal() and bsd_signal() give them (blocked in its handler, system calls
 * restarted). */
__sighandler_t sigtrap_guard_signal(int signo, __sighandler_t handler) {
    return set_handler(signo, handler, sigtrap_guard_real_functions.signal, SA_RESTART, true);
}

__sighandler_t sigtrap_guard_bsd_signal(int signo, __sighandler_t handler) {
    return set_handler(signo, handler, sigtrap_guard_real_functions.bsd_signal, SA_RESTART, true);
}

/* System V semantics (what signal() is in strict ISO C builds): reset to SIG_DFL at delivery, not blocked in
 * its handler, system calls interrupted. */
__sighandler_t sigtrap_guard_sysv_signal(int signo, __sighandler_t handler) {
    return set_handler(signo, handler, sigtrap_guard_real_functions.sysv_signal, SA_RESETHAND | SA_NODEFER, false);
}

/* System V's sigset: SIG_HOLD blocks SIGTRAP in the calling thread and answers the action (SIG_HOLD if it
 * was blocked already); any other disposition is set with no flags and unblocks it (SIG_HOLD answered if it
 * was blocked). */
__sighandler_t sigtrap_guard_sigset(int signo, __sighandler_t disposition) {
    if (signo != SIGTRAP) return sigtrap_guard_real_functions.sigset(signo, disposition);
    sigset_t trap, before;
    sigemptyset(&trap);
    sigaddset(&trap, SIGTRAP);
    struct sigaction was;
    if (disposition == SIG_HOLD) {
        if (pthread_sigmask(SIG_BLOCK, &trap, &before) != 0) return SIG_ERR;
        if (sigismember(&before, SIGTRAP)) return SIG_HOLD;
        return exchange(NULL, &was) == 0 ? was.sa_handler : SIG_ERR;
    }
    __sighandler_t previous = set_handler(signo, disposition, sigtrap_guard_real_functions.sigset, 0, false);
    if (previous == SIG_ERR || pthread_sigmask(SIG_UNBLOCK, &trap, &before) != 0) return SIG_ERR;
    return sigismember(&before, SIGTRAP) ? SIG_HOLD : previous;
}

int sigtrap_guard_sigignore(int signo) {
    if (signo != SIGTRAP) return sigtrap_guard_real_functions.sigignore(signo);
    return set_handler(signo, SIG_IGN, NULL, 0, false) == SIG_ERR ? -1 : 0;
}

bool sigtrap_guard_begin(void (*handler)(int, siginfo_t *, void *), int (*install)(void)) {
    sigset_t saved;
    lock(&saved);
    ours = handler;
    struct sigaction now;
    if (sigtrap_guard_real_functions.sigaction(SIGTRAP, NULL, &now) == 0 && !is_ours(&now)) set_app(&now);
    up = true;     /* from here a hooked call sets the application's action, not the disposition */
    armed = false;
    unlock(&saved);
    /* Outside the lock: installing ours may reinstall our other handlers, through a sigaction that may take
     * a lock of its own (libjsig's), which must not be waited for with every signal blocked. */
    bool installed = install() == 0;
    lock(&saved);
    armed = installed;
    if (!installed) up = false;   /* the disposition is still the one read above: the application's */
    unlock(&saved);
    return installed;
}

void sigtrap_guard_end(void) {
    sigset_t saved;
    lock(&saved);
    up = false;
    unlock(&saved);
}

bool sigtrap_guard_up(void) {
    sigset_t saved;
    lock(&saved);
    bool u = up;
    unlock(&saved);
    return u;
}

void sigtrap_guard_after_fork(void) {
    atomic_flag_clear_explicit(&busy, memory_order_release);
}

void sigtrap_guard_chain(int signo, siginfo_t *info, void *ucontext) {
    sigset_t saved;
    lock(&saved);
    struct sigaction a = app;
    if (a.sa_flags & SA_RESETHAND) {   /* once only, as the kernel would */
        memset(&app, 0, sizeof(app));
        app.sa_handler = SIG_DFL;
    }
    unlock(&saved);
    uintptr_t here = (uintptr_t)__builtin_frame_address(0);
    bool nested = chaining.info == info && chaining.frame && here < chaining.frame;
    bool dfl = !(a.sa_flags & SA_SIGINFO) && a.sa_handler == SIG_DFL;
    /* Ignored: a SIGTRAP sent by someone is dropped, but the kernel forces a trap of the code itself (int3, a
     * single step) to the default action. */
    bool trap = info && info->si_code > 0 && info->si_code != TRAP_PERF;
    if (!(a.sa_flags & SA_SIGINFO) && a.sa_handler == SIG_IGN && !trap) return;
    if (dfl || nested || (!(a.sa_flags & SA_SIGINFO) && a.sa_handler == SIG_IGN)) {
        /* Blocked while this handler runs, the raised SIGTRAP acts as it returns: the process ends with its
         * core dump, as without us (or as a handler that chained back to ours would have had it). */
        default_action_raise(signo);
        return;
    }
    /* The handler's own mask on top of ours, and with SA_NODEFER SIGTRAP open in it as the kernel would leave
     * it (one of our events' then samples the handler, from a handler of ours that is not sampling). It runs on
     * the stack ours runs on: SA_ONSTACK is not honoured (ours on an alternate stack, often a few KiB, could
     * overflow it). */
    sigset_t before, trap_only;
    pthread_sigmask(SIG_BLOCK, &a.sa_mask, &before);
    if ((a.sa_flags & SA_NODEFER) && !sigismember(&a.sa_mask, SIGTRAP)) {
        sigemptyset(&trap_only);
        sigaddset(&trap_only, SIGTRAP);
        pthread_sigmask(SIG_UNBLOCK, &trap_only, NULL);
    }
    typeof(chaining) outer = chaining;
    chaining.info = info;
    chaining.frame = here;
    if (a.sa_flags & SA_SIGINFO) a.sa_sigaction(signo, info, ucontext);
    else a.sa_handler(signo);
    chaining = outer;
    pthread_sigmask(SIG_SETMASK, &before, NULL);
}
