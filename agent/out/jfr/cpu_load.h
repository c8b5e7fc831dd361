/*
 * cpu_load: the process's and the machine's CPU use between two readings of /proc, as jdk.CPULoad
 * reports it (fractions of the whole machine). Called by the JFR writer thread about once a second.
 */
#ifndef LIBPROF_CPU_LOAD_H
#define LIBPROF_CPU_LOAD_H

#include <stdbool.h>
#include <stdint.h>

typedef struct {
    uint64_t process_user, process_system;   /* clock ticks, /proc/self/stat */
    uint64_t machine_busy, machine_total;    /* clock ticks summed over CPUs, /proc/stat */
    bool valid;
} cpu_load_reading;

/* Reads the counters now; false when /proc cannot be read. */
bool cpu_load_read(cpu_load_reading *out);

/* The loads between two readings, clamped to [0, 1]; false when no time passed. */
bool cpu_load_between(const cpu_load_reading *before, const cpu_load_reading *after, float *jvm_user,
                      float *jvm_system, float *machine_total);

#endif
