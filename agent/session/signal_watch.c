/*
 * signal_watch: an application or another agent may install its own handler for the profiling signal, or
 * re-arm ITIMER_PROF, after profiling started. Nothing tells us: the signals just stop reaching our handler
 * and the profile looks complete with a handful of samples. So every CHECK_PERIOD_NS this thread checks
 * - the disposition of the profiling signal: not our handler any more -> the engine moves to a free
 *   real-time signal (perf: F_SETSIG on each event; ctimer: its timers are created again), or, for an
 *   engine bound to its signal (itimer, SIGPROF only), stops sending the other party signals it did not
 *   ask for;
 * - what the engine checks itself (check_owned): its timer where it is process-wide (ITIMER_PROF re-armed by
 *   someone else), SIGTRAP taken from the perf engine's sigtrap events;
 * - the sample rate against the CPU time the process used, which catches what the first two cannot see
 *   (the signal blocked, our timers deleted): far fewer samples than the interval promises is reported.
 * Each finding is warned once and noted for the profile's header (text report, HTML subtitle).
 * The safe reads' SIGSEGV handler is checked here too (safe_read_mode_check).
 */
#include "signal_watch.h"

#include "clock_ns.h"
#include "engine_signals.h"
#include "log.h"
#include "periodic.h"
#include "safe_read_mode.h"
#include "sample.h"
#include "sample_setup.h"

#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define CHECK_PERIOD_NS 200000000L
#define RATE_WINDOW_NS 2000000000ULL
/* The rate check assumes no more than one sample per 10 ms (a kernel tick at HZ=100 bounds the timer
 * engines), and reports only when fewer than 5% of the samples that CPU time should give arrived. */
#define RATE_SLOWEST_PERIOD_NS 10000000ULL
#define RATE_MIN_EXPECTED 40
#define RATE_REPORT_BELOW 0.05

static periodic thread;
static const engine *watched;
static uint64_t interval, started_ns;
static bool gave_up;   /* the signal was taken and could not be moved: later findings are its consequence */

static pthread_mutex_t note_lock = PTHREAD_MUTEX_INITIALIZER;
static char note[512];

static double seconds_in(void) {
    return (double)(clock_mono_ns() - started_ns) / 1e9;
}

/* Warns and appends to the header note. */
static void report(const char *fmt, ...) {
    char text[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof(text), fmt, ap);
    va_end(ap);
    log_warn("%s", text);
    pthread_mutex_lock(&note_lock);
    size_t n = strlen(note);
    snprintf(note + n, sizeof(note) - n, "%s%s", n ? "; " : "", text);
    pthread_mutex_unlock(&note_lock);
}

static bool have_note(void) {
    pthread_mutex_lock(&note_lock);
    bool any = note[0] != 0;
    pthread_mutex_unlock(&note_lock);
    return any;
}

static void signal_name(int signo, char *out, size_t len) {
    if (signo == SIGPROF) snprintf(out, len, "SIGPROF");
    else snprintf(out, len, "signal %d", signo);
}

static void check_disposition(void) {
    int signo = engine_profiling_signal();
    if (gave_up || engine_handler_installed(signo)) return;
    char name[32];
    signal_name(signo, name, sizeof(name));
    double at = seconds_in();
    if (!watched->signal || !watched->signal->move_signal) {
        gave_up = true;
        watched->stop();   /* the other party's handler must not receive our timer's signals */
        report("%s was taken by another handler %.1f s into profiling: the %s engine cannot use another signal, "
               "no samples after that", name, at, watched->name);
        return;
    }
    int to = engine_move_signal();
    if (to < 0 || watched->signal->move_signal(to) != 0) {
        gave_up = true;
        report("%s was taken by another handler %.1f s into profiling and could not be replaced: "
               "no samples after that", name, at);
        return;
    }
    report("%s was taken by another handler %.1f s into profiling: moved to signal %d", name, at, to);
}

/* The engine's own check (check_owned): its timer re-armed by someone else, its SIGTRAP taken. The reason
 * says what became of the samples. */
static void check_owned(bool *warned) {
    char why[224];
    const engine_signal_ops *ops = watched->signal;
    if (*warned || !ops || !ops->check_owned || ops->check_owned(why, sizeof(why)) == 0) return;
    *warned = true;
    report("%.1f s into profiling, %s", seconds_in(), why);
}

typedef struct {
    uint64_t at_ns, cpu_ns, signals;
    bool warned;
} rate_window;

static void check_rate(rate_window *w) {
    uint64_t now = clock_mono_ns();
    if (now - w->at_ns < RATE_WINDOW_NS) return;
    uint64_t signals = sample_signals_total();
    uint64_t cpu = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
    uint64_t period = interval > RATE_SLOWEST_PERIOD_NS ? interval : RATE_SLOWEST_PERIOD_NS;
    double expected = (double)(cpu - w->cpu_ns) / (double)period;
    uint64_t got = signals - w->signals;
    if (!w->warned && !gave_up && engine_weighs_time(watched) && !have_note() && expected >= RATE_MIN_EXPECTED &&
        (double)got < expected * RATE_REPORT_BELOW) {
        w->warned = true;
        report("%.1f s into profiling: %llu samples for %.1f s of CPU time (at least %.0f expected): the "
               "profiling signal or timer may be blocked or taken by another party, or the busy threads are "
               "not sampled", seconds_in(), (unsigned long long)got, (double)(cpu - w->cpu_ns) / 1e9, expected);
    }
    *w = (rate_window){now, cpu, signals, w->warned};
}

/* The rate check's window and whether the timer's loss was warned: the watch thread's own, set at start. */
static rate_window rate;
static bool timer_warned;

static void watch(void) {
    safe_read_mode_check();
    check_disposition();
    check_owned(&timer_warned);
    check_rate(&rate);
}

int signal_watch_start(const engine *e, uint64_t interval_ns, bool resume) {
    signal_watch_stop();
    pthread_mutex_lock(&note_lock);
    if (!resume) note[0] = 0;
    pthread_mutex_unlock(&note_lock);
    watched = e;
    interval = interval_ns;
    started_ns = clock_mono_ns();
    gave_up = false;
    rate = (rate_window){clock_mono_ns(), clock_ns(CLOCK_PROCESS_CPUTIME_ID), sample_signals_total(), false};
    timer_warned = false;
    return periodic_start(&thread, CHECK_PERIOD_NS, watch);
}

void signal_watch_stop(void) {
    periodic_stop(&thread);
}

void signal_watch_note(char *out, size_t len) {
    pthread_mutex_lock(&note_lock);
    snprintf(out, len, "%s", note);
    pthread_mutex_unlock(&note_lock);
}
