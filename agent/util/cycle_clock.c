/*
 * cycle_clock: the TSC is used only when /proc/cpuinfo promises a constant, non-stop counter, and its rate
 * is measured against CLOCK_MONOTONIC over 50 ms, each end read as a tight (clock, counter) pair (good to
 * about 0.1%: a 100 ms threshold moves by about 0.1 ms).
 */
#define _GNU_SOURCE
#include "cycle_clock.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

bool cycle_clock_tsc;
double cycle_clock_ns_per_tick = 1.0;

#if defined(__x86_64__)
static bool tsc_is_constant(void) {
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return false;
    char line[4096];
    bool constant = false, nonstop = false;
    while (fgets(line, sizeof(line), f)) {
        if (strncmp(line, "flags", 5) != 0) continue;
        constant = strstr(line, " constant_tsc") != NULL;
        nonstop = strstr(line, " nonstop_tsc") != NULL;
        break;
    }
    fclose(f);
    return constant && nonstop;
}

/* A (clock, counter) pair read as close together as the thread manages: of a few tries, the one whose two
 * counter reads around the clock read are nearest (a preemption in between would skew the rate). */
static void read_pair(uint64_t *ns, uint64_t *tsc) {
    uint64_t best = UINT64_MAX;
    for (int i = 0; i < 8; i++) {
        uint64_t a = __rdtsc(), t = clock_mono_ns(), b = __rdtsc();
        if (b - a < best) {
            best = b - a;
            *ns = t;
            *tsc = a + (b - a) / 2;
        }
    }
}
#endif

static void calibrate(void) {
#if defined(__x86_64__)
    if (!tsc_is_constant()) return;
    uint64_t t0, c0, t1, c1;
    read_pair(&t0, &c0);
    struct timespec pause = {0, 50 * 1000 * 1000};
    nanosleep(&pause, NULL);
    read_pair(&t1, &c1);
    if (c1 <= c0 || t1 <= t0) return;
    cycle_clock_ns_per_tick = (double)(t1 - t0) / (double)(c1 - c0);
    cycle_clock_tsc = true;
#endif
}

void cycle_clock_init(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, calibrate);
}
