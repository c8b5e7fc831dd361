/* [signal-safe] sigtrap_guard: see sigtrap_guard.h. */
#define _GNU_SOURCE
#include "sigtrap_guard.h"

#include "default_action.h"

#include <errno.h>
#include <stdatomic.h>
#include <string.h>

sigtrap_guard_real sigtrap_guard_real_functions;

static atomic_flag busy = ATOMIC_FLAG_INIT;
static bool up;                     /* under 'busy' */
static struct sigaction app;        /* the application's action, under 'busy'; zero: SIG_DFL */

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

int sigtrap_guard_sigaction(int signo, const struct sigaction *act, struct sigaction *old) {
    if (signo != SIGTRAP) return sigtrap_guard_real_functions.sigaction(signo, act, old);
    sigset_t saved;
    lock(&saved);
    if (!up) {
        unlock(&saved);
        return sigtrap_guard_real_functions.sigaction(signo, act, old);
    }
    struct sigaction was = app;
    if (act) app = *act;
    unlock(&saved);
    if (old) *old = was;
    return 0;
}

/* signal() and bsd_signal(): BSD semantics, as glibc gives them (the signal blocked in its handler, system
 * calls restarted). */
static __sighandler_t set_handler(int signo, __sighandler_t handler, __sighandler_t (*real)(int, __sighandler_t)) {
    if (signo != SIGTRAP) return real(signo, handler);
    if (handler == SIG_ERR) {
        errno = EINVAL;
        return SIG_ERR;
    }
    struct sigaction act;
    memset(&act, 0, sizeof(act));
    act.sa_handler = handler;
    act.sa_flags = SA_RESTART;
    sigemptyset(&act.sa_mask);
    sigaddset(&act.sa_mask, SIGTRAP);
    sigset_t saved;
    lock(&saved);
    if (!up) {
        unlock(&saved);
        return real(signo, handler);
    }
    __sighandler_t was = app.sa_handler;   /* sa_sigaction shares its storage: the same address either way */
    app = act;
    unlock(&saved);
    return was;
}

__sighandler_t sigtrap_guard_signal(int signo, __sighandler_t handler) {
    return set_handler(signo, handler, sigtrap_guard_real_functions.signal);
}

__sighandler_t sigtrap_guard_bsd_signal(int signo, __sighandler_t handler) {
    return set_handler(signo, handler, sigtrap_guard_real_functions.bsd_signal);
}

static bool is_ours(const struct sigaction *a, void (*ours)(int, siginfo_t *, void *)) {
    return (a->sa_flags & SA_SIGINFO) && a->sa_sigaction == ours;
}

void sigtrap_guard_begin(void (*ours)(int, siginfo_t *, void *)) {
    sigset_t saved;
    lock(&saved);
    struct sigaction now;
    if (sigtrap_guard_real_functions.sigaction(SIGTRAP, NULL, &now) == 0 && !is_ours(&now, ours)) app = now;
    up = true;
    unlock(&saved);
}

bool sigtrap_guard_end(void (*ours)(int, siginfo_t *, void *)) {
    sigset_t saved;
    lock(&saved);
    bool handed = false;
    struct sigaction now;
    if (up && sigtrap_guard_real_functions.sigaction(SIGTRAP, NULL, &now) == 0 && is_ours(&now, ours) &&
        !(!(app.sa_flags & SA_SIGINFO) && app.sa_handler == SIG_DFL))
        handed = sigtrap_guard_real_functions.sigaction(SIGTRAP, &app, NULL) == 0;
    up = false;
    unlock(&saved);
    return handed;
}

bool sigtrap_guard_up(void) {
    sigset_t saved;
    lock(&saved);
    bool u = up;
    unlock(&saved);
    return u;
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
    if (!(a.sa_flags & SA_SIGINFO) && a.sa_handler == SIG_IGN) return;
    if (!(a.sa_flags & SA_SIGINFO) && a.sa_handler == SIG_DFL) {
        /* Blocked while this handler runs, the raised SIGTRAP acts as it returns: the process ends with its
         * core dump, as without us. */
        default_action_raise(signo);
        return;
    }
    /* The handler's own mask on top of ours (SIGTRAP stays blocked in it, even with SA_NODEFER). */
    sigset_t before;
    pthread_sigmask(SIG_BLOCK, &a.sa_mask, &before);
    if (a.sa_flags & SA_SIGINFO) a.sa_sigaction(signo, info, ucontext);
    else a.sa_handler(signo);
    pthread_sigmask(SIG_SETMASK, &before, NULL);
}
