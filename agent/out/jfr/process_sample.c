/*
 * process_sample: see process_sample.h. A round keeps the processes it read, sorted by pid, so the next
 * round finds a process's previous CPU time by binary search, and a pid reused by a new process (another
 * start time) starts over.
 */
#define _GNU_SOURCE
#include "process_sample.h"

#include "clock_ns.h"
#include "jfr_types.h"

#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_PROCESSES 5000
#define ROUND_NS 900000000ULL
#define MIN_SHARE 0.05

static uint64_t read_boot_time(const char *root) {
    char path[256], line[256];
    snprintf(path, sizeof(path), "%s/stat", root);
    FILE *f = fopen(path, "r");
    unsigned long long btime = 0;
    while (f && fgets(line, sizeof(line), f))
        if (sscanf(line, "btime %llu", &btime) == 1) break;
    if (f) fclose(f);
    return btime;
}

void process_sampler_init(process_sampler *s, const char *proc_root) {
    memset(s, 0, sizeof(*s));
    s->proc_root = proc_root;
    s->boot_s = read_boot_time(proc_root);
    s->hz = sysconf(_SC_CLK_TCK) > 0 ? sysconf(_SC_CLK_TCK) : 100;
    s->page_size = sysconf(_SC_PAGESIZE) > 0 ? sysconf(_SC_PAGESIZE) : 4096;
    long pages = sysconf(_SC_PHYS_PAGES);
    s->ram_bytes = pages > 0 ? (uint64_t)pages * (uint64_t)s->page_size : 0;
}

void process_sampler_free(process_sampler *s) {
    free(s->seen);
    s->seen = NULL;
    s->seen_count = 0;
}

/* The whole small file at root/PID/name into buf; its length, or -1. */
static ssize_t read_small(const process_sampler *s, int pid, const char *name, char *buf, size_t len) {
    char path[256];
    snprintf(path, sizeof(path), "%s/%d/%s", s->proc_root, pid, name);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    size_t used = 0;
    while (used + 1 < len) {
        ssize_t r = read(fd, buf + used, len - 1 - used);
        if (r < 0) {
            close(fd);
            return -1;
        }
        if (r == 0) break;
        used += (size_t)r;
    }
    close(fd);
    buf[used] = 0;
    return (ssize_t)used;
}

bool process_read_stat(const process_sampler *s, int pid, process_info *p) {
    char buf[2048];
    if (read_small(s, pid, "stat", buf, sizeof(buf)) <= 0) return false;
    /* The command sits in parentheses and may hold any byte, ')' included: the fields follow the last. */
    char *open_paren = strchr(buf, '('), *close_paren = strrchr(buf, ')');
    if (!open_paren || !close_paren || close_paren < open_paren) return false;
    memset(p, 0, sizeof(*p));
    p->pid = atoi(buf);
    size_t n = (size_t)(close_paren - open_paren - 1);
    if (n >= sizeof(p->name)) n = sizeof(p->name) - 1;
    memcpy(p->name, open_paren + 1, n);
    unsigned long long minflt, majflt, utime, stime, start, vsize, rss;
    int threads;
    /* from field 3 (state): 4 ppid, 10 minflt, 12 majflt, 14 utime, 15 stime, 20 threads, 22 starttime,
     * 23 vsize, 24 rss */
    if (sscanf(close_paren + 1, " %c %d %*d %*d %*d %*d %*u %llu %*u %llu %*u %llu %llu %*d %*d %*d %*d %d %*d %llu %llu %llu",
               &p->state, &p->ppid, &minflt, &majflt, &utime, &stime, &threads, &start, &vsize, &rss) != 10)
        return false;
    p->minor_faults = minflt;
    p->major_faults = majflt;
    p->cpu_ticks = utime + stime;
    p->cpu_user = (float)utime / (float)s->hz;
    p->cpu_system = (float)stime / (float)s->hz;
    p->threads = threads;
    p->start_ms = (s->boot_s + start / (uint64_t)s->hz) * 1000 + (start % (uint64_t)s->hz) * 1000 / (uint64_t)s->hz;
    p->vm_size = vsize;
    p->vm_rss = rss * (uint64_t)s->page_size;
    return true;
}

/* "Key:   123 kB" lines of /proc/PID/status. */
static bool status_value(const char *text, const char *key, uint64_t *out) {
    size_t n = strlen(key);
    for (const char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        if (strncmp(line, key, n) == 0 && line[n] == ':') {
            *out = strtoull(line + n + 1, NULL, 10);
            return true;
        }
    }
    return false;
}

void process_read_details(const process_sampler *s, process_info *p) {
    char buf[4096];
    uint64_t v;
    if (read_small(s, p->pid, "status", buf, sizeof(buf)) > 0) {
        if (status_value(buf, "Uid", &v)) p->uid = (uint32_t)v;
        if (status_value(buf, "VmSize", &v)) p->vm_size = v * 1024;
        if (status_value(buf, "VmRSS", &v)) p->vm_rss = v * 1024;
        if (status_value(buf, "RssAnon", &v)) p->rss_anon = v * 1024;
        if (status_value(buf, "RssFile", &v)) p->rss_files = v * 1024;
        if (status_value(buf, "RssShmem", &v)) p->rss_shmem = v * 1024;
    }
    if (read_small(s, p->pid, "io", buf, sizeof(buf)) > 0) {
        if (status_value(buf, "read_bytes", &v)) p->io_read = v;
        if (status_value(buf, "write_bytes", &v)) p->io_write = v;
    }
    ssize_t n = read_small(s, p->pid, "cmdline", p->cmdline, sizeof(p->cmdline));
    if (n < 0) n = 0;
    for (ssize_t i = 0; i < n; i++)
        if (p->cmdline[i] == 0) p->cmdline[i] = ' ';
    while (n > 0 && p->cmdline[n - 1] == ' ') p->cmdline[--n] = 0;
}

static int by_pid(const void *a, const void *b) {
    int x = ((const process_seen *)a)->pid, y = ((const process_seen *)b)->pid;
    return (x > y) - (x < y);
}

static const process_seen *seen_before(const process_sampler *s, int pid) {
    process_seen key = {.pid = pid};
    return s->seen_count ? bsearch(&key, s->seen, s->seen_count, sizeof(*s->seen), by_pid) : NULL;
}

size_t process_sampler_round(process_sampler *s, jfr_buf *b, uint64_t ticks, uint64_t now_ns) {
    DIR *dir = opendir(s->proc_root);
    if (!dir) return 0;
    process_seen *now = malloc(MAX_PROCESSES * sizeof(*now));
    size_t count = 0, written = 0;
    double seconds = s->seen_ns && now_ns > s->seen_ns ? (double)(now_ns - s->seen_ns) / 1e9 : 0;
    uint64_t deadline = clock_mono_ns() + ROUND_NS;
    for (struct dirent *e; now && count < MAX_PROCESSES && (e = readdir(dir));) {
        if (!isdigit((unsigned char)e->d_name[0])) continue;
        if (clock_mono_ns() > deadline) break;
        process_info p;
        if (!process_read_stat(s, atoi(e->d_name), &p)) continue;
        now[count++] = (process_seen){p.pid, p.start_ms, p.cpu_ticks};
        const process_seen *before = seen_before(s, p.pid);
        if (!before || before->start_ms != p.start_ms || seconds <= 0 || p.cpu_ticks < before->cpu_ticks) continue;
        p.cpu_percent = (float)((double)(p.cpu_ticks - before->cpu_ticks) / (double)s->hz / seconds);
        bool big = s->ram_bytes && (double)p.vm_rss / (double)s->ram_bytes >= MIN_SHARE;
        if (p.cpu_percent < MIN_SHARE && !big) continue;
        process_read_details(s, &p);
        jfr_event_process_sample(b, ticks, &p);
        written++;
    }
    closedir(dir);
    if (now) {
        qsort(now, count, sizeof(*now), by_pid);
        free(s->seen);
        s->seen = now;
        s->seen_count = count;
        s->seen_ns = now_ns;
    }
    return written;
}

void jfr_event_process_sample(jfr_buf *b, uint64_t ticks, const process_info *p) {
    size_t at = jfr_buf_event_begin(b, JFR_PROCESS_SAMPLE);
    jfr_buf_put_varint(b, ticks);
    jfr_buf_put_varint(b, (uint32_t)p->pid);
    jfr_buf_put_varint(b, (uint32_t)p->ppid);
    jfr_buf_put_utf8(b, p->name);
    jfr_buf_put_utf8(b, p->cmdline);
    jfr_buf_put_varint(b, p->uid);
    jfr_buf_put_u8(b, (uint8_t)p->state);
    jfr_buf_put_varint(b, p->start_ms);
    jfr_buf_put_float(b, p->cpu_user);
    jfr_buf_put_float(b, p->cpu_system);
    jfr_buf_put_float(b, p->cpu_percent);
    jfr_buf_put_varint(b, (uint32_t)p->threads);
    jfr_buf_put_varint(b, p->vm_size);
    jfr_buf_put_varint(b, p->vm_rss);
    jfr_buf_put_varint(b, p->rss_anon);
    jfr_buf_put_varint(b, p->rss_files);
    jfr_buf_put_varint(b, p->rss_shmem);
    jfr_buf_put_varint(b, p->minor_faults);
    jfr_buf_put_varint(b, p->major_faults);
    jfr_buf_put_varint(b, p->io_read);
    jfr_buf_put_varint(b, p->io_write);
    jfr_buf_event_end(b, at);
}
