/*
 * out_jfr: one recording at a time, in a static state guarded by its own mutex so the writer thread and
 * a dump never interleave. Events are appended to a buffer that is written to the file after each drain;
 * a chunk's header is written first as "being written" and rewritten (pwrite) when the chunk is closed.
 * Finished chunks are never touched again, which is what lets a dump copy them without stopping anything.
 */
#define _GNU_SOURCE
#include "out_jfr.h"

#include "cpu_load.h"
#include "filepath.h"
#include "jfr_chunk.h"
#include "jfr_events.h"
#include "jfr_pools.h"
#include "jfr_types.h"
#include "jvm.h"
#include "jvm_threads.h"
#include "log.h"
#include "sample.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#define RING_RECORDS (128 * 1024)   /* 2 s of samples at 1 ms on 64 busy threads */
#define DRAIN_PERIOD_MS 100
#define FLUSH_BYTES (256 * 1024)
#define SWITCH_FILL_PERCENT 50           /* a trace table this full is swapped for the other one */

typedef struct {
    bool active;
    int fd;
    char tmp_path[1200];
    char target[1024];         /* the session's file, expanded at start; "" = none */
    char file_pattern[1024];   /* the session's file= as given */
    prof_options options;
    char engine[32], cstack[16];
    sample_ring *ring;
    trace_table *tables[2];    /* by sample.h's table index */
    int table_index;           /* the one the handlers store into */
    jfr_pools pools;
    jfr_buf buf;               /* events not yet in the file */
    uint64_t file_size;        /* bytes in the file */
    uint64_t chunk_start;      /* file offset of the open chunk */
    uint64_t chunk_ticks, chunk_nanos;
    uint64_t start_ms;         /* the recording's start, wall clock */
    uint64_t samples;
    int chunks;
    int error;                 /* errno of the first failed write, 0 if none */
    bool out_of_memory;
    cpu_load_reading cpu;
    uint64_t cpu_ticks;
    char os_version[512], jvm_name[256], jvm_version[256], java_command[1024];
    uint64_t process_start_ms;

    pthread_t thread;
    bool thread_running;
    bool stop_requested;
    pthread_mutex_t mutex;
    pthread_cond_t wake;
} recording;

static recording rec = {.fd = -1, .mutex = PTHREAD_MUTEX_INITIALIZER};
static pthread_once_t wake_once = PTHREAD_ONCE_INIT;
static sample_ring *ring;   /* kept for the life of the process: handlers may hold it after a session */

static uint64_t clock_ns(clockid_t clock) {
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void init_wake(void) {
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&rec.wake, &attr);
    pthread_condattr_destroy(&attr);
}

/* ---- the file ------------------------------------------------------------------------------------- */

static void note_error(int error) {
    if (!rec.error) {
        rec.error = error ? error : EIO;
        log_error("JFR recording %s: write failed: %s; the recording will be incomplete", rec.tmp_path,
                  strerror(rec.error));
    }
}

static bool write_all(int fd, const uint8_t *p, size_t n) {
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return false;
        p += w;
        n -= (size_t)w;
    }
    return true;
}

/* Writes the buffered events to the file. */
static void flush_buf(void) {
    if (rec.buf.failed) rec.out_of_memory = true;
    if (rec.buf.len && !rec.error) {
        if (write_all(rec.fd, rec.buf.data, rec.buf.len)) rec.file_size += rec.buf.len;
        else note_error(errno);
    }
    jfr_buf_clear(&rec.buf);
    rec.buf.failed = false;
}

/* ---- events --------------------------------------------------------------------------------------- */

static void interval_text(uint64_t ns, char *buf, size_t len) {
    if (ns % 1000000 == 0) snprintf(buf, len, "%llu ms", (unsigned long long)(ns / 1000000));
    else if (ns % 1000 == 0) snprintf(buf, len, "%llu us", (unsigned long long)(ns / 1000));
    else snprintf(buf, len, "%llu ns", (unsigned long long)ns);
}

/* What every chunk starts with: the recording, its settings, the system it runs on. */
static void write_chunk_start_events(uint64_t ticks) {
    const prof_options *o = &rec.options;
    jfr_recording_info info = {"libprof", rec.target[0] ? rec.target : NULL, o->chunk_size, rec.start_ms,
                               (rec.chunk_nanos / 1000000) - rec.start_ms};
    jfr_event_active_recording(&rec.buf, ticks, &info);
    char interval[64], number[64];
    interval_text(o->interval_ns, interval, sizeof(interval));
    struct { const char *name, *value; } settings[] = {
        {"enabled", "true"}, {"period", interval}, {"event", o->event}, {"engine", rec.engine},
        {"interval", interval}, {"cstack", rec.cstack}, {"jstackdepth", NULL}, {"threads", o->threads ? "true" : "false"},
        {"lib", o->lib ? "true" : "false"}, {"chunksize", NULL}, {"chunktime", NULL},
    };
    for (size_t i = 0; i < sizeof(settings) / sizeof(settings[0]); i++) {
        const char *value = settings[i].value;
        if (strcmp(settings[i].name, "jstackdepth") == 0) snprintf(number, sizeof(number), "%d", o->jstackdepth);
        else if (strcmp(settings[i].name, "chunksize") == 0)
            snprintf(number, sizeof(number), "%llu", (unsigned long long)o->chunk_size);
        else if (strcmp(settings[i].name, "chunktime") == 0)
            snprintf(number, sizeof(number), "%llu s", (unsigned long long)(o->chunk_time_ns / 1000000000ULL));
        if (!value) value = number;
        jfr_event_active_setting(&rec.buf, ticks, JFR_EXECUTION_SAMPLE, settings[i].name, value);
    }
    jfr_event_os_information(&rec.buf, ticks, rec.os_version);
    jfr_jvm_info jvm = {rec.jvm_name, rec.jvm_version, NULL, rec.java_command[0] ? rec.java_command : NULL,
                        rec.process_start_ms, (uint64_t)getpid()};
    jfr_event_jvm_information(&rec.buf, ticks, &jvm);
}

static void chunk_begin(uint64_t ticks, uint64_t nanos) {
    rec.chunk_start = rec.file_size;
    rec.chunk_ticks = ticks;
    rec.chunk_nanos = nanos;
    jfr_chunk_header h = {.start_nanos = nanos, .start_ticks = ticks, .ticks_per_second = JFR_TICKS_PER_SECOND};
    uint8_t bytes[JFR_HEADER_SIZE];
    jfr_chunk_header_encode(&h, bytes);   /* "being written" until chunk_end completes it */
    jfr_put_bytes(&rec.buf, bytes, sizeof(bytes));
    write_chunk_start_events(ticks);
    flush_buf();
}

/* Pools for what the chunk referred to, the metadata, and the completed header. */
static void chunk_end(uint64_t ticks) {
    jfr_chunk_header h = {.start_nanos = rec.chunk_nanos, .start_ticks = rec.chunk_ticks,
                          .duration_nanos = ticks > rec.chunk_ticks ? ticks - rec.chunk_ticks : 0,
                          .ticks_per_second = JFR_TICKS_PER_SECOND, .finished = true};
    jvm_threads_refresh_names();   /* the thread pool names threads as they are called now */
    if (jfr_pools_end_chunk(&rec.pools, &rec.buf, ticks, rec.file_size - rec.chunk_start, &h))
        rec.out_of_memory = true;
    flush_buf();
    h.size = rec.file_size - rec.chunk_start;
    uint8_t bytes[JFR_HEADER_SIZE];
    jfr_chunk_header_encode(&h, bytes);
    if (!rec.error && pwrite(rec.fd, bytes, sizeof(bytes), (off_t)rec.chunk_start) != (ssize_t)sizeof(bytes))
        note_error(errno);
    rec.chunks++;
}

/* Turns every queued sample into an event. Caller holds rec.mutex. */
static void drain(void) {
    sample_record batch[512];
    size_t n;
    while ((n = sample_ring_drain(rec.ring, batch, sizeof(batch) / sizeof(batch[0]))) > 0) {
        for (size_t i = 0; i < n; i++) {
            jfr_event_execution_sample(&rec.buf, batch[i].ticks, jfr_pools_thread_key(&rec.pools, batch[i].tid),
                                       jfr_pools_trace_key(&rec.pools, batch[i].trace_id));
            jfr_pools_note(&rec.pools, batch[i].trace_id, batch[i].tid);
        }
        rec.samples += n;
        if (rec.buf.len >= FLUSH_BYTES) flush_buf();
    }
    flush_buf();
}

static bool table_crowded(void) {
    return rec.tables[1] && traces_fill_percent(rec.tables[rec.table_index]) >= SWITCH_FILL_PERCENT;
}

/* Closes the chunk and opens the next. When the trace table in use is crowded, the handlers move to the
 * other (empty) table first; the crowded one is reset once the closed chunk's pools have read it. */
static void rotate(void) {
    int old = rec.table_index, switched = -2;
    if (table_crowded()) {
        switched = sample_switch_table(rec.tables[old ^ 1], 2000);
        rec.table_index = old ^ 1;
        if (switched < 0) log_warn("JFR: a signal handler held the previous trace table for 2 s; it is kept as is");
        else log_debug("JFR: trace table %d is %d%% full: samples go to table %d", old,
                       traces_fill_percent(rec.tables[old]), old ^ 1);
    }
    drain();   /* every record of the previous table is queued by now */
    uint64_t ticks = clock_ns(CLOCK_MONOTONIC), nanos = clock_ns(CLOCK_REALTIME);
    chunk_end(ticks);
    if (switched >= 0) {
        traces_reset(rec.tables[old]);
        jfr_pools_table_reset(&rec.pools, old);
    }
    chunk_begin(ticks, nanos);
}

static void sample_cpu_load(uint64_t now) {
    if (now - rec.cpu_ticks < 1000000000ULL) return;
    cpu_load_reading current;
    float user, system, machine;
    if (cpu_load_read(&current) && cpu_load_between(&rec.cpu, &current, &user, &system, &machine))
        jfr_event_cpu_load(&rec.buf, now, user, system, machine);
    rec.cpu = current;
    rec.cpu_ticks = now;
}

/* ---- the writer thread ---------------------------------------------------------------------------- */

static void *writer_main(void *arg) {
    (void)arg;
    /* Closing a chunk names Java methods through JVMTI: only a thread the JVM knows may do that. */
    bool attached = jvm_attach_current_thread_named("libprof JFR writer") != NULL;
    if (!attached) log_warn("JFR writer: cannot attach to the JVM; chunks are closed only at stop and dump");
    pthread_mutex_lock(&rec.mutex);
    while (!rec.stop_requested) {
        struct timespec deadline;
        clock_gettime(CLOCK_MONOTONIC, &deadline);
        deadline.tv_nsec += DRAIN_PERIOD_MS * 1000000L;
        if (deadline.tv_nsec >= 1000000000L) {
            deadline.tv_sec++;
            deadline.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&rec.wake, &rec.mutex, &deadline);
        if (rec.stop_requested) break;
        drain();
        uint64_t now = clock_ns(CLOCK_MONOTONIC);
        sample_cpu_load(now);
        bool full = rec.file_size + rec.buf.len - rec.chunk_start >= rec.options.chunk_size;
        bool old = now - rec.chunk_ticks >= rec.options.chunk_time_ns;
        if (attached && (full || old || table_crowded())) rotate();
    }
    pthread_mutex_unlock(&rec.mutex);
    if (attached) jvm_detach_current_thread();
    return NULL;
}

static void stop_thread(void) {
    if (!rec.thread_running) return;
    pthread_mutex_lock(&rec.mutex);
    rec.stop_requested = true;
    pthread_cond_broadcast(&rec.wake);
    pthread_mutex_unlock(&rec.mutex);
    pthread_join(rec.thread, NULL);
    rec.thread_running = false;
}

/* ---- start, dump, finish -------------------------------------------------------------------------- */

static uint64_t process_start_ms(void) {
    char line[1024];
    FILE *f = fopen("/proc/self/stat", "r");
    bool ok = f && fgets(line, sizeof(line), f);
    if (f) fclose(f);
    char *p = ok ? strrchr(line, ')') : NULL;
    unsigned long long start_ticks = 0, btime = 0;
    /* field 22 (starttime), counted from field 3 after the command */
    if (!p || sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %*d %*d %llu",
                     &start_ticks) != 1)
        return 0;
    f = fopen("/proc/stat", "r");
    if (!f) return 0;
    while (fgets(line, sizeof(line), f)) {
        if (sscanf(line, "btime %llu", &btime) == 1) break;
    }
    fclose(f);
    long hz = sysconf(_SC_CLK_TCK);
    return btime && hz > 0 ? btime * 1000ULL + start_ticks * 1000ULL / (unsigned long long)hz : 0;
}

static void describe_system(void) {
    struct utsname u;
    if (uname(&u) == 0)
        snprintf(rec.os_version, sizeof(rec.os_version), "%s %s %s %s", u.sysname, u.release, u.version, u.machine);
    else snprintf(rec.os_version, sizeof(rec.os_version), "Linux");
    jvm_system_property("java.vm.name", rec.jvm_name, sizeof(rec.jvm_name));
    jvm_system_property("java.vm.version", rec.jvm_version, sizeof(rec.jvm_version));
    jvm_system_property("sun.java.command", rec.java_command, sizeof(rec.java_command));
    rec.process_start_ms = process_start_ms();
}

static int open_temp(const prof_options *o, char *err, size_t errlen) {
    static _Atomic unsigned serial;
    rec.target[0] = 0;
    if (o->file[0]) {
        if (filepath_expand(o->file, getpid(), time(NULL), rec.target, sizeof(rec.target), err, errlen)) return -1;
        snprintf(rec.tmp_path, sizeof(rec.tmp_path), "%s.tmp-%d", rec.target, (int)getpid());
    } else {
        const char *dir = getenv("TMPDIR");
        snprintf(rec.tmp_path, sizeof(rec.tmp_path), "%s/libprof-%d-%u.jfr.tmp", dir && *dir ? dir : "/tmp",
                 (int)getpid(), atomic_fetch_add(&serial, 1));
    }
    rec.fd = open(rec.tmp_path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (rec.fd < 0) {
        snprintf(err, errlen, "cannot write the JFR recording to '%s': %s", rec.target[0] ? rec.target : rec.tmp_path,
                 strerror(errno));
        return -1;
    }
    return 0;
}

sample_ring *out_jfr_start(const out_jfr_config *cfg, char *err, size_t errlen) {
    pthread_once(&wake_once, init_wake);
    if (rec.active) {
        snprintf(err, errlen, "a JFR recording is already open");
        return NULL;
    }
    if (!ring && !(ring = sample_ring_create(RING_RECORDS))) {
        snprintf(err, errlen, "cannot reserve memory for the JFR sample queue");
        return NULL;
    }
    /* Records a previous session left behind (it was stopped before they were taken) are not ours. */
    sample_record stale[256];
    while (sample_ring_drain(ring, stale, 256) > 0) {}
    rec.options = *cfg->options;
    snprintf(rec.file_pattern, sizeof(rec.file_pattern), "%s", cfg->options->file);
    snprintf(rec.engine, sizeof(rec.engine), "%s", cfg->engine);
    snprintf(rec.cstack, sizeof(rec.cstack), "%s", cfg->cstack);
    if (open_temp(cfg->options, err, errlen)) return NULL;
    rec.ring = ring;
    rec.tables[0] = cfg->table;
    rec.tables[1] = cfg->spare;
    rec.table_index = 0;
    jfr_pools_init(&rec.pools, cfg->table, cfg->spare, cfg->options->lib);
    jfr_buf_init(&rec.buf);
    rec.file_size = 0;
    rec.samples = 0;
    rec.chunks = 0;
    rec.error = 0;
    rec.out_of_memory = false;
    rec.stop_requested = false;
    describe_system();
    uint64_t ticks = clock_ns(CLOCK_MONOTONIC), nanos = clock_ns(CLOCK_REALTIME);
    rec.start_ms = nanos / 1000000;
    cpu_load_read(&rec.cpu);
    rec.cpu_ticks = ticks;
    chunk_begin(ticks, nanos);
    int rc = pthread_create(&rec.thread, NULL, writer_main, NULL);
    if (rc) {
        snprintf(err, errlen, "cannot start the JFR writer thread: %s", strerror(rc));
        close(rec.fd);
        unlink(rec.tmp_path);
        jfr_pools_free(&rec.pools);
        jfr_buf_free(&rec.buf);
        return NULL;
    }
    rec.thread_running = true;
    rec.active = true;
    return ring;
}

bool out_jfr_active(void) {
    return rec.active;
}

/* Where o sends the recording: its own file, else the session's; "" = standard output. */
static int destination(const prof_options *o, char *path, size_t len, char *err, size_t errlen) {
    if (o->file[0] && strcmp(o->file, rec.file_pattern) != 0)
        return filepath_expand(o->file, getpid(), time(NULL), path, len, err, errlen);
    snprintf(path, len, "%s", rec.target);
    return 0;
}

/* Copies the first 'size' bytes of the recording to 'path' (through a temporary file and a rename), or
 * to standard output when path is "". */
static int copy_out(uint64_t size, const char *path, char *err, size_t errlen) {
    char tmp[1200];
    int out = STDOUT_FILENO;
    if (path[0]) {
        snprintf(tmp, sizeof(tmp), "%s.tmp-%d-copy", path, (int)getpid());
        out = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (out < 0) {
            snprintf(err, errlen, "cannot write the JFR recording to '%s': %s", path, strerror(errno));
            return -1;
        }
    }
    uint8_t block[65536];
    int error = 0;
    for (uint64_t at = 0; at < size && !error;) {
        size_t want = size - at < sizeof(block) ? (size_t)(size - at) : sizeof(block);
        ssize_t got = pread(rec.fd, block, want, (off_t)at);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) error = got < 0 ? errno : EIO;
        else if (!write_all(out, block, (size_t)got)) error = errno ? errno : EIO;
        else at += (uint64_t)got;
    }
    if (path[0]) {
        if (close(out) != 0 && !error) error = errno;
        if (!error && rename(tmp, path) != 0) error = errno;
        if (error) unlink(tmp);
    }
    if (error) snprintf(err, errlen, "cannot write the JFR recording to '%s': %s", path[0] ? path : "standard output",
                        strerror(error));
    return error ? -1 : 0;
}

int out_jfr_dump(const prof_options *o, char *err, size_t errlen) {
    char path[1024];
    if (!rec.active) {
        snprintf(err, errlen, "no JFR recording is open");
        return -1;
    }
    if (destination(o, path, sizeof(path), err, errlen)) return -1;
    pthread_mutex_lock(&rec.mutex);
    drain();
    rotate();
    uint64_t finished = rec.chunk_start;
    int error = rec.error;
    pthread_mutex_unlock(&rec.mutex);
    if (error) {
        snprintf(err, errlen, "cannot write the JFR recording to '%s': %s", rec.tmp_path, strerror(error));
        return -1;
    }
    /* Finished chunks are never written again: they can be copied while the writer goes on. */
    int rc = copy_out(finished, path, err, errlen);
    if (rc == 0) log_info("JFR recording so far (%d chunks) written to %s", rec.chunks, path[0] ? path : "stdout");
    return rc;
}

static void close_recording(void) {
    if (rec.fd >= 0) close(rec.fd);
    rec.fd = -1;
    jfr_pools_free(&rec.pools);
    jfr_buf_free(&rec.buf);
    rec.active = false;
}

int out_jfr_finish(const prof_options *o, uint64_t *samples, char *err, size_t errlen) {
    if (!rec.active) {
        snprintf(err, errlen, "no JFR recording is open");
        return -1;
    }
    stop_thread();
    pthread_mutex_lock(&rec.mutex);
    drain();
    chunk_end(clock_ns(CLOCK_MONOTONIC));
    pthread_mutex_unlock(&rec.mutex);
    *samples = rec.samples;
    char path[1024];
    int rc = destination(o, path, sizeof(path), err, errlen);
    if (rc == 0 && rec.error) {
        snprintf(err, errlen, "cannot write the JFR recording to '%s': %s", path[0] ? path : rec.tmp_path,
                 strerror(rec.error));
        rc = -1;
    } else if (rc == 0 && rec.out_of_memory) {
        snprintf(err, errlen, "out of memory while writing the JFR recording");
        rc = -1;
    }
    if (rc == 0) {
        if (path[0] && rename(rec.tmp_path, path) == 0) {
            /* moved in place */
        } else if (!path[0] || errno == EXDEV) {
            rc = copy_out(rec.file_size, path, err, errlen);
            if (rc == 0) unlink(rec.tmp_path);
        } else {
            snprintf(err, errlen, "cannot write the JFR recording to '%s': %s", path, strerror(errno));
            rc = -1;
        }
    }
    if (rc != 0) unlink(rec.tmp_path);
    else log_info("JFR recording written to %s (%llu samples, %d chunks)", path[0] ? path : "stdout",
                  (unsigned long long)rec.samples, rec.chunks);
    close_recording();
    return rc;
}

void out_jfr_abort(void) {
    if (!rec.active) return;
    stop_thread();
    unlink(rec.tmp_path);
    close_recording();
}
