/*
 * process_sample: async-profiler's process sampling (proc=): every interval the JFR writer reads the
 * machine's processes from /proc and writes one profiler.ProcessSample event (async-profiler's name and
 * fields) for each that used at least 5% of a CPU since the last round or holds at least 5% of the RAM.
 * A process's first round only remembers its CPU time (no rate yet), as async-profiler's does; a round
 * stops after 5000 processes or 900 ms. Not for signal handlers (files, allocation).
 */
#ifndef LIBPROF_PROCESS_SAMPLE_H
#define LIBPROF_PROCESS_SAMPLE_H

#include "jfr_buf.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One process as /proc shows it. cpu_user, cpu_system: seconds since it started; cpu_percent: CPUs used
 * since the last round (1 = one whole CPU, async-profiler's unit); sizes and I/O in bytes. */
typedef struct {
    int pid, ppid;
    char name[16];
    char cmdline[1024];   /* arguments separated by spaces */
    uint32_t uid;
    char state;           /* R, S, D, Z... */
    uint64_t start_ms;    /* since the epoch */
    uint64_t cpu_ticks;   /* utime + stime, clock ticks */
    float cpu_user, cpu_system, cpu_percent;
    int threads;
    uint64_t vm_size, vm_rss, rss_anon, rss_files, rss_shmem;
    uint64_t minor_faults, major_faults;
    uint64_t io_read, io_write;
} process_info;

/* What the last round saw of each process: its CPU time then. */
typedef struct {
    int pid;
    uint64_t start_ms, cpu_ticks;
} process_seen;

typedef struct {
    const char *proc_root;   /* "/proc" (tests: a directory laid out like it) */
    process_seen *seen;      /* the last round's, sorted by pid */
    size_t seen_count;
    uint64_t seen_ns;        /* CLOCK_MONOTONIC of the last round; 0 before the first */
    uint64_t boot_s;         /* btime of /proc/stat */
    long hz, page_size;
    uint64_t ram_bytes;
} process_sampler;

void process_sampler_init(process_sampler *s, const char *proc_root);
void process_sampler_free(process_sampler *s);

/* /proc/PID/stat into p (the basic fields); false when it cannot be read. */
bool process_read_stat(const process_sampler *s, int pid, process_info *p);
/* /proc/PID/status, io and cmdline into p, what of them can be read. */
void process_read_details(const process_sampler *s, process_info *p);

/* One round at 'now_ns' (CLOCK_MONOTONIC): the events, stamped 'ticks', appended to b. Returns how many. */
size_t process_sampler_round(process_sampler *s, jfr_buf *b, uint64_t ticks, uint64_t now_ns);

/* The event itself. */
void jfr_event_process_sample(jfr_buf *b, uint64_t ticks, const process_info *p);

#endif
