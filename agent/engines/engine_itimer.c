/*
 * engine_itimer: setitimer(ITIMER_PROF). One process-wide timer on the process CPU clock; the kernel sends
 * SIGPROF to whichever thread is running when it expires, so busy threads are sampled in proportion to the
 * CPU they use. Resolution is bounded by the kernel tick.
 */
#include "engine.h"
#include "engine_signals.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>

static int itimer_check(const prof_options *o, char *err, size_t errlen) {
    (void)o;
    struct itimerval current;
    if (engine_profiling_signal() != SIGPROF) {
        snprintf(err, errlen, "ITIMER_PROF always signals SIGPROF, which the application handles itself");
        return -1;
    }
    if (getitimer(ITIMER_PROF, &current) != 0) {
        snprintf(err, errlen, "getitimer(ITIMER_PROF): %s", strerror(errno));
        return -1;
    }
    if (current.it_value.tv_sec || current.it_value.tv_usec) {
        snprintf(err, errlen, "ITIMER_PROF is already in use by someone else in this process");
        return -1;
    }
    return 0;
}

static struct timeval armed;   /* the interval we armed, as the kernel reports it back */

static int itimer_set(uint64_t interval_ns) {
    uint64_t us = interval_ns / 1000;
    if (interval_ns && us == 0) us = 1;
    struct itimerval tv = {{(time_t)(us / 1000000), (suseconds_t)(us % 1000000)},
                           {(time_t)(us / 1000000), (suseconds_t)(us % 1000000)}}, now;
    int rc = setitimer(ITIMER_PROF, &tv, NULL);
    if (rc == 0 && getitimer(ITIMER_PROF, &now) == 0) armed = now.it_interval;
    return rc;
}

/* ITIMER_PROF is one per process: someone who armed it since has replaced ours. */
static int itimer_check_owned(char *why, size_t len) {
    struct itimerval now;
    if (getitimer(ITIMER_PROF, &now) != 0 ||
        (now.it_interval.tv_sec == armed.tv_sec && now.it_interval.tv_usec == armed.tv_usec))
        return 0;
    snprintf(why, len, "ITIMER_PROF was re-armed by another party (interval now %lld us, ours %lld us): the "
             "samples after that follow its timer",
             (long long)now.it_interval.tv_sec * 1000000 + now.it_interval.tv_usec,
             (long long)armed.tv_sec * 1000000 + armed.tv_usec);
    return -1;
}

static int itimer_start(const prof_options *o, uint64_t interval_ns, char *err, size_t errlen) {
    (void)o;
    if (engine_install_handler(SIGPROF) != 0 || itimer_set(interval_ns) != 0) {
        snprintf(err, errlen, "itimer: cannot arm ITIMER_PROF: %s", strerror(errno));
        return -1;
    }
    return 0;
}

static void itimer_stop(void) {
    char why[128];
    if (itimer_check_owned(why, sizeof(why)) == 0) itimer_set(0);   /* never disarm someone else's timer */
}

static const engine_signal_ops itimer_signal = {
    .own_si_codes = {SI_KERNEL, SI_KERNEL},   /* the kernel's own SIGPROF at each ITIMER_PROF expiry */
    .check_owned = itimer_check_owned,
};

const engine engine_itimer = {
    .name = "itimer",
    .units = ENGINE_UNITS_NS,
    .default_interval = 10000000ULL,
    .check = itimer_check,
    .start = itimer_start,
    .stop = itimer_stop,
    .signal = &itimer_signal,
};
