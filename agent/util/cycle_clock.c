/*
 * cycle_clock: the TSC is used only when /proc/cpuinfo promises a constant, non-stop counter, and its rate
 * is measured against CLOCK_MONOTONIC over 20 ms (good to well under 0.1%: a 100 ms threshold moves by
 * less than 0.1 ms).
 */
#define _GNU_SOURCE
#include "cycle_clock.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

bool cycle_clock_tsc;
double cycle_clock_ns_per_tick = 1.0;

static bool tsc_is_constant(void) {
#if defined(__x86_64__)
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
#else
    return false;
#endif
}

static void calibrate(void) {
#if defined(__x86_64__)
    if (!tsc_is_constant()) return;
    uint64_t t0 = clock_mono_ns(), c0 = __rdtsc();
    struct timespec pause = {0, 20 * 1000 * 1000};
    nanosleep(&pause, NULL);
    uint64_t t1 = clock_mono_ns(), c1 = __rdtsc();
    if (c1 <= c0 || t1 <= t0) return;
    cycle_clock_ns_per_tick = (double)(t1 - t0) / (double)(c1 - c0);
    cycle_clock_tsc = true;
#endif
}

void cycle_clock_init(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, calibrate);
}
