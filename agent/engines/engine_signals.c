/*
 * engine_signals: the one signal handler the signal engines share, and which signals they use. The handler
 * stays installed after the profiler stops: a timer signal still in flight must never meet the default
 * action, which kills the JVM.
 */
#include "engine_signals.h"

#include "clock_ns.h"
#include "log.h"
#include "perf_sigtrap.h"
#include "sample.h"

#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>
#include <time.h>

/* Real-time signals neither glibc (SIGRTMIN..+2 internally) nor HotSpot uses: the first alternatives. */
#define ALTERNATE_SIGNAL_OFFSET 6
#define ALTERNATE_SIGNAL_COUNT 8

static _Atomic int chosen;

/* Our handler for signo: SIGTRAP's passes what is not our perf events' on to the default action. */
static void (*our_handler(int signo))(int, siginfo_t *, void *) {
    return signo == SIGTRAP ? perf_sigtrap_handler : sample_signal_handler;
}

/* Someone else handles signo with a handler of its own. */
static bool taken_by_other(int signo) {
    struct sigaction current;
    sigaction(signo, NULL, &current);
    return (current.sa_flags & SA_SIGINFO) ? current.sa_sigaction != our_handler(signo)
                                           : current.sa_handler != SIG_DFL && current.sa_handler != SIG_IGN;
}

int engine_profiling_signal(void) {
    int signo = atomic_load(&chosen);
    if (signo) return signo;
    bool taken = taken_by_other(SIGPROF);
    signo = taken ? SIGRTMIN + ALTERNATE_SIGNAL_OFFSET : SIGPROF;
    atomic_store(&chosen, signo);
    if (taken) log_info("SIGPROF is handled by the application: profiling with signal %d instead", signo);
    return signo;
}

bool engine_handler_installed(int signo) {
    struct sigaction current;
    return sigaction(signo, NULL, &current) == 0 && (current.sa_flags & SA_SIGINFO) &&
           current.sa_sigaction == our_handler(signo);
}

/* The queued signal's number once chosen (engine_queued_signal); engine_move_signal never takes it. */
static _Atomic int queued;

int engine_move_signal(void) {
    int from = engine_profiling_signal();
    for (int i = 0; i < ALTERNATE_SIGNAL_COUNT; i++) {
        int signo = SIGRTMIN + ALTERNATE_SIGNAL_OFFSET + i;
        if (signo == from || signo == atomic_load(&queued) || signo > SIGRTMAX || taken_by_other(signo)) continue;
        if (engine_install_handler(signo) != 0) continue;
        atomic_store(&chosen, signo);
        return signo;
    }
    return -1;
}

int engine_queued_signal(void) {
    int signo = atomic_load(&queued);
    if (signo) return signo;
    int profiling = engine_profiling_signal();
    /* From the top of the alternatives down: engine_move_signal takes them from the bottom up. */
    for (int i = ALTERNATE_SIGNAL_COUNT; i-- > 0;) {
        signo = SIGRTMIN + ALTERNATE_SIGNAL_OFFSET + i;
        if (signo == profiling || signo > SIGRTMAX || taken_by_other(signo)) continue;
        if (engine_install_handler(signo) != 0) continue;
        atomic_store(&queued, signo);
        return signo;
    }
    return -1;
}

/* Our handlers block each other's signals while they run: a handler is never interrupted by another sample
 * on the same thread, whose stack would be our handler's and which would share its per-thread state. */
static int install(int signo, const sigset_t *ours) {
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = our_handler(signo);
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sa.sa_mask = *ours;
    return sigaction(signo, &sa, NULL);
}

static sigset_t installed;

int engine_install_handler(int signo) {
    static bool initialised;
    if (!initialised) {
        sigemptyset(&installed);
        initialised = true;
    }
    if (sigismember(&installed, signo) == 1) return 0;
    sigset_t ours = installed;
    sigaddset(&ours, signo);
    if (install(signo, &ours) != 0) return -1;
    installed = ours;
    /* The handlers installed before block this signal too from now on (those another party took stay its). */
    for (int other = 1; other <= SIGRTMAX; other++) {
        if (other != signo && sigismember(&installed, other) == 1 && engine_handler_installed(other))
            install(other, &ours);
    }
    return 0;
}

int engine_retake_handler(int signo) {
    if (sigismember(&installed, signo) != 1) return engine_install_handler(signo);
    return engine_handler_installed(signo) ? 0 : install(signo, &installed);
}

uint64_t engine_thread_cpu_ns(int tid) {
    /* The kernel's MAKE_THREAD_CPUCLOCK(tid, CPUCLOCK_SCHED). */
    return clock_ns((clockid_t)((~(clockid_t)tid << 3) | 6));
}
