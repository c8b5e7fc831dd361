/*
 * out_jfr: one recording at a time, in a static state guarded by its own mutex so the writer thread and
 * a dump never interleave. Two files: the recording ("<target>.tmp-<pid>-<random>.jfr") holds finished chunks
 * only, and the chunk in progress is written to a file of its own ("<target>.tmp-<pid>-<random>.part", unlinked
 * as soon as it is created: only its descriptor is used, so nothing is left behind by a kill or by a directory
 * that is moved away, and no later unlink by name can hit a file that is not ours): events are
 * appended to a buffer that is written there after each drain, the chunk's header is written first as
 * "being written" and completed (pwrite) when the chunk is closed, and only then is the chunk appended to
 * the recording. So the recording is a valid JFR file between appends, whatever kills the process (the
 * JDK's tools refuse a file whose last chunk is unfinished), and finished chunks are never touched again,
 * which is what lets a dump copy them without stopping anything. A failed write (a full disk) stops the
 * recording: the chunk in progress is dropped, an append cut short is truncated away, and the finished
 * chunks are kept and moved to the target as usual.
 */
#define _GNU_SOURCE
#include "agent_threads.h"
#include "clock_ns.h"
#include "sample_ring_create.h"
#include "out_jfr.h"

#include "cpu_load.h"
#include "process_sample.h"
#include "event_clock.h"
#include "event_kind.h"
#include "filepath.h"
#include "jdk_recording.h"
#include "jfr_chunk.h"
#include "jfr_event.h"
#include "jfr_sample_event.h"
#include "jfr_pools.h"
#include "jfr_types.h"
#include "jvm.h"
#include "jvm_threads.h"
#include "log.h"
#include "safe_file.h"
#include "sample_window.h"
#include "trace_store.h"
#include "trace_store_swap.h"

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
    int fd;                    /* the recording: finished chunks only */
    int part_fd;               /* the chunk in progress */
    char tmp_path[1200], part_path[1200];
    char target[1024];         /* the session's file, expanded at start; "" = none */
    char file_pattern[1024];   /* the session's file= as given */
    prof_options options;
    char engine[32], cstack[16];
    sample_ring *ring;
    trace_table *tables[2];    /* by trace_store.h's table index */
    int table_index;           /* the one the handlers store into */
    void (*incomplete_reason)(char *out, size_t len);
    jfr_pools pools;
    jfr_buf buf;               /* events not yet in the file */
    uint64_t file_size;        /* bytes in the recording: its finished chunks */
    uint64_t part_size;        /* bytes of the open chunk in its own file */
    uint64_t chunk_ticks, chunk_nanos;
    uint64_t start_ms;         /* the recording's start, wall clock */
    uint64_t samples;
    int chunks;
    int error;                 /* errno of the failed write that stopped the recording, 0 if none */
    uint64_t stopped_ms;       /* when it stopped (wall clock) */
    uint64_t dropped;          /* samples queued after it stopped */
    uint64_t unwritable;       /* samples of an event kind with no JFR event (jfr_sample_event.h) */
    bool out_of_memory;
    cpu_load_reading cpu;
    uint64_t cpu_ticks;
    process_sampler processes;   /* proc=: the machine's processes every proc_ns */
    uint64_t proc_ns, proc_last_ns;
    char os_version[512], jvm_name[256], jvm_version[256], java_command[1024];
    uint64_t process_start_ms;

    pthread_t thread;
    bool thread_running;
    bool stop_requested;
    pthread_mutex_t mutex;
    pthread_cond_t wake;
} recording;

static recording rec = {.fd = -1, .part_fd = -1, .mutex = PTHREAD_MUTEX_INITIALIZER};
static pthread_once_t wake_once = PTHREAD_ONCE_INIT;
static sample_ring *ring;   /* kept for the life of the process: handlers may hold it after a session */

static void init_wake(void) {
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&rec.wake, &attr);
    pthread_condattr_destroy(&attr);
}

/* ---- the file ------------------------------------------------------------------------------------- */

/* What the recording holds: "N chunks (B bytes)". */
static void describe_kept(char *text, size_t len) {
    snprintf(text, len, "%d finished chunk%s (%llu bytes)", rec.chunks, rec.chunks == 1 ? "" : "s",
             (unsigned long long)rec.file_size);
}

/* A write failed (typically a full disk): recording stops, the chunk in progress is dropped (its file
 * closed, which gives its space back: it is already unlinked) and the finished chunks are kept. */
static void stop_on_error(int error, const char *what) {
    if (rec.error) return;
    rec.error = error ? error : EIO;
    rec.stopped_ms = clock_ns(CLOCK_REALTIME) / 1000000;
    if (rec.part_fd >= 0) close(rec.part_fd);
    rec.part_fd = -1;
    rec.part_size = 0;   /* nothing in progress: the writer no longer sees a full chunk to close */
    char kept[128];
    describe_kept(kept, sizeof(kept));
    log_error("JFR recording: cannot write %s: %s; recording stopped. Kept: the %s in %s (moved to the "
              "recording's file when the session ends); the chunk in progress is dropped", what,
              strerror(rec.error), kept, rec.tmp_path);
}

/* The chunk's file is unlinked: the message names it for what it was. */
static void stop_on_part_error(int error) {
    char what[1300];
    snprintf(what, sizeof(what), "the chunk in progress (%s, an unlinked temporary file)", rec.part_path);
    stop_on_error(error, what);
}

/* Writes everything with pwrite at 'at' (outputs in place go through safe_file_write_all); false with errno
 * set (ENOSPC for a write that could not make progress). */
static bool write_all(int fd, const uint8_t *p, size_t n, uint64_t at) {
    while (n > 0) {
        ssize_t w = pwrite(fd, p, n, (off_t)at);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            if (w == 0) errno = ENOSPC;
            return false;
        }
        p += w;
        n -= (size_t)w;
        at += (uint64_t)w;
    }
    return true;
}

/* Writes the buffered events to the chunk's file. */
static void flush_buf(void) {
    if (rec.buf.failed) rec.out_of_memory = true;
    if (rec.buf.len && !rec.error) {
        if (write_all(rec.part_fd, rec.buf.data, rec.buf.len, rec.part_size)) rec.part_size += rec.buf.len;
        else stop_on_part_error(errno);
    }
    jfr_buf_clear(&rec.buf);
    rec.buf.failed = false;
}

/* Appends the finished chunk to the recording. An append cut short is truncated away, so the recording
 * ends at its last whole chunk whatever happens. */
static int append_chunk(void) {
    uint8_t block[65536];
    for (uint64_t at = 0; at < rec.part_size;) {
        size_t want = rec.part_size - at < sizeof(block) ? (size_t)(rec.part_size - at) : sizeof(block);
        ssize_t got = pread(rec.part_fd, block, want, (off_t)at);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0 || !write_all(rec.fd, block, (size_t)got, rec.file_size + at)) {
            int error = got == 0 ? EIO : errno;
            if (ftruncate(rec.fd, (off_t)rec.file_size) != 0)
                log_error("JFR recording %s: cannot cut it back to its %llu bytes of finished chunks: %s", rec.tmp_path,
                          (unsigned long long)rec.file_size, strerror(errno));
            stop_on_error(error, rec.tmp_path);
            return -1;
        }
        at += (uint64_t)got;
    }
    rec.file_size += rec.part_size;
    rec.part_size = 0;
    /* Gives the space back; should it fail, the next chunk overwrites the file from offset 0 and the stale
     * tail past part_size is never read. */
    if (ftruncate(rec.part_fd, 0) != 0) log_debug("JFR: cannot empty %s: %s", rec.part_path, strerror(errno));
    return 0;
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
    char interval[64], interval_ns[32], number[64];
    interval_text(o->interval_ns, interval, sizeof(interval));
    /* "period" as the JDK's recordings write it; "interval" as async-profiler's do, a bare number of ns (its
     * converter parses it as one). */
    snprintf(interval_ns, sizeof(interval_ns), "%llu", (unsigned long long)o->interval_ns);
    struct { const char *name, *value; } settings[] = {
        {"enabled", "true"}, {"period", interval}, {"event", o->event}, {"engine", rec.engine},
        {"interval", interval_ns}, {"cstack", rec.cstack}, {"jstackdepth", NULL}, {"threads", o->threads ? "true" : "false"},
        {"lib", o->lib ? "true" : "false"}, {"chunksize", NULL}, {"chunktime", NULL},
        {"clock", event_clock.tsc ? "tsc" : "monotonic"},
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
    /* The wall-clock interval in ns, under the name async-profiler's converters read it by ("wall"). */
    bool wall_first = options_event_kind(o->event) == EVENT_WALL;
    if (wall_first || o->extra_events[EVENT_WALL]) {
        snprintf(number, sizeof(number), "%llu",
                 (unsigned long long)(wall_first ? o->interval_ns : o->extra_intervals[EVENT_WALL]));
        jfr_event_active_setting(&rec.buf, ticks, JFR_EXECUTION_SAMPLE, "wall", number);
    }
    if (options_jfr_flags(o) & JFR_OPTS_NO_SYSTEM_INFO) return;
    jfr_event_os_information(&rec.buf, ticks, rec.os_version);
    jfr_jvm_info jvm = {rec.jvm_name, rec.jvm_version, NULL, rec.java_command[0] ? rec.java_command : NULL,
                        rec.process_start_ms, (uint64_t)getpid()};
    jfr_event_jvm_information(&rec.buf, ticks, &jvm);
}

static void chunk_begin(uint64_t ticks, uint64_t nanos) {
    rec.part_size = 0;
    rec.chunk_ticks = ticks;
    rec.chunk_nanos = nanos;
    jfr_chunk_header h = {.start_nanos = nanos, .start_ticks = ticks, .ticks_per_second = event_clock.frequency};
    uint8_t bytes[JFR_HEADER_SIZE];
    jfr_chunk_header_encode(&h, bytes);   /* "being written" until chunk_end completes it */
    jfr_buf_put_bytes(&rec.buf, bytes, sizeof(bytes));
    write_chunk_start_events(ticks);
    flush_buf();
}

/* Pools for what the chunk referred to, the metadata, and the completed header. */
static void chunk_end(uint64_t ticks) {
    if (rec.error) return;
    jfr_chunk_header h = {.start_nanos = rec.chunk_nanos, .start_ticks = rec.chunk_ticks,
                          .duration_nanos = ticks > rec.chunk_ticks ? event_clock_ns_of_ticks(ticks - rec.chunk_ticks) : 0,
                          .ticks_per_second = event_clock.frequency, .finished = true};
    jvm_threads_refresh_names();   /* the thread pool names threads as they are called now */
    /* What made the profile incomplete (the profiling signal taken by another party...), in every chunk
     * from the one it happened in: JFR's place for it is a setting of the sampling event. */
    char warning[512];
    warning[0] = 0;
    if (rec.incomplete_reason) rec.incomplete_reason(warning, sizeof(warning));
    if (warning[0]) jfr_event_active_setting(&rec.buf, ticks, JFR_EXECUTION_SAMPLE, "warning", warning);
    if (jfr_pools_end_chunk(&rec.pools, &rec.buf, ticks, rec.part_size, &h))
        rec.out_of_memory = true;
    flush_buf();
    if (rec.error) return;
    h.size = rec.part_size;
    uint8_t bytes[JFR_HEADER_SIZE];
    jfr_chunk_header_encode(&h, bytes);
    if (!write_all(rec.part_fd, bytes, sizeof(bytes), 0)) stop_on_part_error(errno);
    else if (append_chunk() == 0) rec.chunks++;
}

/* The event of one sample: allocation and lock samples end in their class (jfr_types.h), which becomes the
 * event's class field; the others are written by jfr_sample_event. False when the sample's event has no
 * JFR event. */
static bool write_sample_event(const sample_record *s) {
    uint64_t thread = jfr_pools_thread_key(&rec.pools, s->tid), trace = jfr_pools_trace_key(&rec.pools, s->trace_id);
    if (s->event != EVENT_ALLOC && s->event != EVENT_LOCK) return jfr_sample_event_write(&rec.buf, s, thread, trace, rec.options.nobatch);
    const trace_frame *frames;
    uint32_t depth;
    traces_buffer decoded = {0};
    trace_table *table = rec.tables[s->trace_id >> 31];
    bool known = table && traces_get(table, s->trace_id & 0x7fffffffu, &decoded, &frames, &depth) && depth > 1;
    trace_frame leaf = known ? frames[0] : (trace_frame){0};
    traces_buffer_free(&decoded);
    if (!known || !frame_kind_is_class(leaf.kind)) return false;
    uint64_t class_key = jfr_pools_event_class_key(&rec.pools, (uint32_t)leaf.id);
    /* A lock event lasts the wait itself; its weight may stand for more (lock_sample.h). */
    uint64_t waited = event_clock_ticks_of_ns(s->size ? s->size : s->weight);
    if (leaf.kind == FRAME_CLASS_MONITOR)
        jfr_event_monitor_enter(&rec.buf, s->ticks, waited, thread, trace, class_key);
    else if (leaf.kind == FRAME_CLASS_PARK)
        jfr_event_thread_park(&rec.buf, s->ticks, waited, thread, trace, class_key);
    else
        jfr_event_allocation_sample(&rec.buf, s->ticks, thread, trace, class_key, s->size, s->weight);
    return true;
}

bool out_jfr_live_object(const trace_frame *frames, uint32_t depth, uint32_t tid, uint64_t ticks, uint64_t size) {
    bool written = false;
    pthread_mutex_lock(&rec.mutex);
    trace_table *table = rec.active && !rec.error ? rec.tables[rec.table_index] : NULL;
    uint32_t id = 0;
    trace_key key = {rec.options.threads ? tid : 0, EVENT_ALLOC, 0};
    if (table && depth > 1 && frame_kind_is_class(frames[0].kind) &&
        traces_put_id(table, frames, depth, &key, size, &id) == TRACES_STORED) {
        id |= rec.table_index ? TRACE_STORE_TABLE_BIT : 0;
        jfr_event_live_object(&rec.buf, ticks, jfr_pools_thread_key(&rec.pools, tid), jfr_pools_trace_key(&rec.pools, id),
                              jfr_pools_event_class_key(&rec.pools, (uint32_t)frames[0].id), size);
        jfr_pools_note(&rec.pools, id, tid);
        rec.samples++;
        if (rec.buf.len >= FLUSH_BYTES) flush_buf();
        written = true;
    }
    pthread_mutex_unlock(&rec.mutex);
    return written;
}

bool out_jfr_span(uint32_t tid, uint64_t start_ticks, uint64_t end_ticks, uint64_t tag_key) {
    bool written = false;
    pthread_mutex_lock(&rec.mutex);
    if (rec.active && !rec.error) {
        jfr_event_span(&rec.buf, start_ticks, end_ticks > start_ticks ? end_ticks - start_ticks : 0,
                       jfr_pools_thread_key(&rec.pools, tid), tag_key);
        jfr_pools_note(&rec.pools, 0, tid);
        jfr_pools_note_tag(&rec.pools, tag_key);
        if (rec.buf.len >= FLUSH_BYTES) flush_buf();
        written = true;
    }
    pthread_mutex_unlock(&rec.mutex);
    return written;
}

static void (*state_listener)(bool recording);

void out_jfr_listen(void (*fn)(bool recording)) {
    state_listener = fn;
}

static void emit_window(uint64_t start, uint64_t end, void *arg) {
    (void)arg;
    if (!rec.error) jfr_event_window(&rec.buf, start, end);
}

/* Turns every queued sample into an event, and the closed sampling windows. Caller holds rec.mutex. */
static void drain(void) {
    sample_window_drain(false, emit_window, NULL);
    sample_record batch[512];
    size_t n;
    while ((n = sample_ring_drain(rec.ring, batch, sizeof(batch) / sizeof(batch[0]))) > 0) {
        if (rec.error) {
            rec.dropped += n;
            continue;
        }
        for (size_t i = 0; i < n; i++) {
            if (!write_sample_event(&batch[i])) {
                rec.unwritable++;
                continue;
            }
            jfr_pools_note(&rec.pools, batch[i].trace_id, batch[i].tid);
            rec.samples++;
        }
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
        switched = trace_store_swap(2000);
        rec.table_index = old ^ 1;
        if (switched < 0) log_warn("JFR: a signal handler held the previous trace table for 2 s; it is kept as is");
        else log_debug("JFR: trace table %d is %d%% full: samples go to table %d", old,
                       traces_fill_percent(rec.tables[old]), old ^ 1);
    }
    drain();   /* every record of the previous table is queued by now */
    uint64_t ticks = event_clock_now(), nanos = clock_ns(CLOCK_REALTIME);
    chunk_end(ticks);
    if (switched >= 0) {
        traces_reset(rec.tables[old]);
        jfr_pools_table_reset(&rec.pools, old);
    }
    if (rec.error) rec.chunk_ticks = ticks;   /* stopped: only the tables keep taking turns */
    else chunk_begin(ticks, nanos);
}

/* jdk.CPULoad each second; with jfrsync the JDK's recording has its own. */
static void sample_cpu_load(uint64_t now) {
    if (options_jfr_flags(&rec.options) & JFR_OPTS_NO_CPU_LOAD) return;
    if (rec.options.jfrsync[0]) return;
    if (event_clock_ns_of_ticks(now - rec.cpu_ticks) < 1000000000ULL) return;
    cpu_load_reading current;
    float user, system, machine;
    if (cpu_load_read(&current) && cpu_load_between(&rec.cpu, &current, &user, &system, &machine))
        jfr_event_cpu_load(&rec.buf, now, user, system, machine);
    rec.cpu = current;
    rec.cpu_ticks = now;
}

/* proc=: a round over the machine's processes each interval, the first one interval after the start (a
 * process's first round has no CPU rate yet). */
static void sample_processes(uint64_t now) {
    if (!rec.proc_ns) return;
    uint64_t mono = clock_mono_ns();
    if (mono - rec.proc_last_ns < rec.proc_ns) return;
    rec.proc_last_ns = mono;
    process_sampler_round(&rec.processes, &rec.buf, now, mono);
}

/* ---- the writer thread ---------------------------------------------------------------------------- */

static void *writer_main(void *arg) {
    (void)arg;
    /* Closing a chunk names Java methods through JVMTI: only a thread the JVM knows may do that. A process
     * with no JVM has none to name. */
    bool no_jvm = jvm_vm() == NULL;
    bool attached = !no_jvm && jvm_attach_current_thread_named("libprof JFR writer") != NULL;
    if (!attached && !no_jvm) log_warn("JFR writer: cannot attach to the JVM; chunks are closed only at stop and dump");
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
        uint64_t now = event_clock_now();
        sample_cpu_load(now);
        sample_processes(now);
        bool full = rec.part_size + rec.buf.len >= rec.options.chunk_size;
        bool old = event_clock_ns_of_ticks(now - rec.chunk_ticks) >= rec.options.chunk_time_ns;
        if ((attached || no_jvm) && (full || old || table_crowded())) rotate();
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

/* The recording's two files (see the top of this file). The recording's name ends in .jfr because the
 * JDK's jfr tool reads no other: what a killed process leaves behind is readable as it is. */
/* Removes the recording's temporary file. Its directory may have been moved or removed since the file was
 * created (the file then lives on under its name wherever the directory went): that is said, with the name,
 * so that nothing of ours is left unaccounted for. */
static void remove_temp(void) {
    if (unlink(rec.tmp_path) == 0 || !rec.tmp_path[0]) return;
    log_warn("JFR: cannot remove the recording's temporary file '%s' (%s): its directory was moved or removed "
             "while recording; if it comes back, that file is ours and may be deleted", rec.tmp_path, strerror(errno));
}

/* Closes both files; the chunk in progress is never kept, the recording only when asked. */
static void close_recording(bool remove_recording) {
    if (rec.fd >= 0) close(rec.fd);
    if (rec.part_fd >= 0) close(rec.part_fd);
    rec.fd = rec.part_fd = -1;
    if (remove_recording) remove_temp();
    jfr_pools_free(&rec.pools);
    jfr_buf_free(&rec.buf);
    bool was = rec.active;
    rec.active = false;
    if (was && state_listener) state_listener(false);
}

/* The recording's two files (see the top of this file), created private and exclusively (safe_file)
 * beside the target, or in $TMPDIR when there is no target yet or it is a device or FIFO (written in place
 * at the end: nothing is created beside it). The recording's name ends in .jfr because the JDK's jfr tool
 * reads no other: what a killed process leaves behind is readable as it is. */
static int open_temp(const prof_options *o, char *err, size_t errlen) {
    static _Atomic unsigned serial;
    char base[1100], why[1400];
    bool beside = false;
    rec.target[0] = 0;
    if (o->file[0]) {
        if (filepath_expand(o->file, getpid(), time(NULL), rec.target, sizeof(rec.target), err, errlen)) return -1;
        safe_file_kind kind = safe_file_classify(rec.target, why, sizeof(why));
        if (kind == SAFE_FILE_REFUSED) {
            snprintf(err, errlen, "cannot write the JFR recording: %s", why);
            return -1;
        }
        beside = kind == SAFE_FILE_NEW;
    }
    if (beside) snprintf(base, sizeof(base), "%s", rec.target);
    else {
        const char *dir = getenv("TMPDIR");
        snprintf(base, sizeof(base), "%s/libprof-%d-%u", dir && *dir ? dir : "/tmp", (int)getpid(),
                 atomic_fetch_add(&serial, 1));
    }
    rec.fd = safe_file_create_temp(base, ".jfr", rec.tmp_path, sizeof(rec.tmp_path), why, sizeof(why));
    if (rec.fd >= 0) {
        rec.part_fd = safe_file_create_temp(base, ".part", rec.part_path, sizeof(rec.part_path), why, sizeof(why));
        if (rec.part_fd < 0) {
            close(rec.fd);
            rec.fd = -1;
            remove_temp();
        } else {
            unlink(rec.part_path);   /* by its descriptor from now on (see the top of this file) */
        }
    }
    if (rec.fd < 0) {
        snprintf(err, errlen, "cannot write the JFR recording to %s", why);
        return -1;
    }
    return 0;
}

/* The event clock: with jfrsync, the JVM's Flight Recorder's own (its TSC when it counts TSC ticks, unless
 * clock=monotonic; its tick base in any case, so one time converter reads both recorders' chunks); with
 * clock=tsc alone, its TSC when it counts TSC ticks; else CLOCK_MONOTONIC. The JDK's recorder is asked only
 * then: its internal class is not touched in a JVM that does not use it. */
static void choose_clock(const prof_options *o) {
    uint64_t ticks = 0, frequency = 0;
    bool asked = (o->clock == PROF_CLOCK_TSC || jdk_recording_open()) && jdk_recording_jvm_ticks(&ticks, &frequency);
    /* The recorder uses the TSC only at more than 1 GHz; otherwise it counts nanoseconds. */
    bool tsc = asked && frequency > 1000000000ULL && o->clock != PROF_CLOCK_MONOTONIC;
    if (o->clock == PROF_CLOCK_TSC && !tsc)
        log_warn("clock=tsc: the JVM's Flight Recorder does not count TSC ticks (it does with -XX:+UnlockExperimentalVMOptions "
                 "-XX:+UseFastUnorderedTimeStamps on x86 with an invariant TSC, once it records): JFR event times are "
                 "CLOCK_MONOTONIC");
    /* clock=monotonic beside a recorder on the TSC: our own base (the two time lines then differ in rate). */
    bool aligned = asked && (tsc || frequency == 1000000000ULL);
    event_clock_set(tsc, aligned ? ticks : 0, frequency);
    if (tsc) log_info("JFR event times: the JVM's TSC, %llu ticks per second", (unsigned long long)frequency);
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
    if (cfg->options->jfrsync[0] && jdk_recording_start(cfg->options, rec.tmp_path, err, errlen)) {
        close_recording(true);
        return NULL;
    }
    choose_clock(cfg->options);
    rec.ring = ring;
    rec.tables[0] = cfg->table;
    rec.tables[1] = cfg->spare;
    rec.incomplete_reason = cfg->incomplete_reason;
    rec.table_index = 0;
    jfr_pools_init(&rec.pools, cfg->table, cfg->spare, cfg->options->lib);
    jfr_buf_init(&rec.buf);
    rec.file_size = 0;
    rec.samples = 0;
    rec.chunks = 0;
    rec.error = 0;
    rec.dropped = 0;
    rec.unwritable = 0;
    rec.out_of_memory = false;
    rec.stop_requested = false;
    describe_system();
    uint64_t ticks = event_clock_now(), nanos = clock_ns(CLOCK_REALTIME);
    rec.start_ms = nanos / 1000000;
    cpu_load_read(&rec.cpu);
    rec.cpu_ticks = ticks;
    process_sampler_free(&rec.processes);
    process_sampler_init(&rec.processes, "/proc");
    rec.proc_ns = (uint64_t)options_proc_interval(cfg->options) * 1000000000ULL;
    rec.proc_last_ns = clock_mono_ns();
    if (rec.proc_ns) process_sampler_round(&rec.processes, &rec.buf, ticks, rec.proc_last_ns);   /* remembers only */
    chunk_begin(ticks, nanos);
    int rc = agent_thread_create(&rec.thread, NULL, "libprof jfr", writer_main, NULL);
    if (rc) {
        snprintf(err, errlen, "cannot start the JFR writer thread: %s", strerror(rc));
        close_recording(true);
        return NULL;
    }
    rec.thread_running = true;
    rec.active = true;
    if (state_listener) state_listener(true);
    return ring;
}

bool out_jfr_active(void) {
    return rec.active;
}

bool out_jfr_has_file(void) {
    return rec.active && rec.target[0];
}

/* Where o sends the recording: its own file, else the session's; "" = standard output. */
static int destination(const prof_options *o, char *path, size_t len, char *err, size_t errlen) {
    if (o->file[0] && strcmp(o->file, rec.file_pattern) != 0)
        return filepath_expand(o->file, getpid(), time(NULL), path, len, err, errlen);
    snprintf(path, len, "%s", rec.target);
    return 0;
}

/* Copies the first 'size' bytes of the recording, then the first 'more_size' of 'more' (the JDK's chunks
 * of a jfrsync dump; -1 for none), to 'path' (see safe_file), or to standard output when path is "". */
static int copy_out_with(uint64_t size, int more, uint64_t more_size, const char *path, char *err, size_t errlen) {
    safe_file f = {.fd = STDOUT_FILENO, .in_place = true};
    if (path[0] && safe_file_open(&f, path, "the JFR recording", err, errlen)) return -1;
    uint8_t block[65536];
    int error = 0;
    for (int part = 0; part < 2 && !error; part++) {
        int from = part ? more : rec.fd;
        uint64_t end = part ? more_size : size;
        for (uint64_t at = 0; from >= 0 && at < end && !error;) {
            size_t want = end - at < sizeof(block) ? (size_t)(end - at) : sizeof(block);
            ssize_t got = pread(from, block, want, (off_t)at);
            if (got < 0 && errno == EINTR) continue;
            if (got <= 0) error = got < 0 ? errno : EIO;
            else if (!safe_file_write_all(f.fd, block, (size_t)got)) error = errno ? errno : EIO;
            else at += (uint64_t)got;
        }
    }
    if (error == ETIMEDOUT)
        snprintf(err, errlen, "cannot write the JFR recording to '%s': its reader took nothing for %d ms; the rest "
                 "was dropped", path[0] ? path : "standard output", SAFE_FILE_STALL_MS);
    else if (error) snprintf(err, errlen, "cannot write the JFR recording to '%s': %s", path[0] ? path : "standard output",
                        strerror(error));
    if (!path[0]) return error ? -1 : 0;
    if (error) {
        safe_file_abandon(&f);
        return -1;
    }
    return safe_file_commit(&f, "the JFR recording", err, errlen);
}

static int copy_out(uint64_t size, const char *path, char *err, size_t errlen) {
    return copy_out_with(size, -1, 0, path, err, errlen);
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
    uint64_t finished = rec.file_size;
    int error = rec.error;
    pthread_mutex_unlock(&rec.mutex);
    if (error && finished == 0) {
        snprintf(err, errlen, "the JFR recording stopped before its first chunk was finished (%s): nothing to write",
                 strerror(error));
        return -1;
    }
    /* jfrsync: the JDK's chunks so far follow ours; without them the dump holds ours alone, and says so. */
    uint64_t jdk_size = 0;
    int jdk = -1;
    if (jdk_recording_open()) {
        char why[512];
        jdk = jdk_recording_snapshot(&jdk_size, why, sizeof(why));
        if (jdk < 0) log_warn("%s; this dump holds libprof's events only", why);
    }
    /* Finished chunks are never written again: they can be copied while the writer goes on. */
    int rc = copy_out_with(finished, jdk, jdk_size, path, err, errlen);
    jdk_recording_snapshot_done(jdk);
    if (rc == 0 && error) {
        char kept[128];
        describe_kept(kept, sizeof(kept));
        snprintf(err, errlen, "the JFR recording stopped %llu s after its start on a write error (%s): %s holds only "
                 "the %s before it", (unsigned long long)(rec.stopped_ms - rec.start_ms) / 1000, strerror(error),
                 path[0] ? path : "standard output", kept);
        return -1;
    }
    if (rc == 0) log_info("JFR recording so far (%d chunks) written to %s", rec.chunks, path[0] ? path : "stdout");
    return rc;
}

/* Puts the complete recording at 'path' ("" = standard output): moved there when it is a new or regular
 * file on the same file system, else copied. On failure *keep says whether the temporary file still holds
 * the recording (it then stays where it is). */
static int deliver(const char *path, bool *keep, char *err, size_t errlen) {
    char why[1400];
    *keep = true;
    if (path[0] && safe_file_classify(path, why, sizeof(why)) == SAFE_FILE_NEW) {
        int e = safe_file_publish(rec.fd, rec.tmp_path, path);
        if (e == 0) {
            *keep = false;
            return 0;
        }
        if (e != EXDEV) {
            snprintf(err, errlen, "cannot move the JFR recording to '%s': %s", path, strerror(e));
            return -1;
        }
    }
    if (copy_out(rec.file_size, path, err, errlen)) return -1;
    *keep = false;
    remove_temp();
    return 0;
}

/* Delivers the recording, its last chunk written, to o's destination, and says how that went. */
static int deliver_finished(const prof_options *o, char *err, size_t errlen) {
    char path[1024];
    int rc = destination(o, path, sizeof(path), err, errlen);
    bool keep = rc != 0 && rec.file_size > 0;   /* a bad destination: what was recorded stays where it is */
    if (rc == 0 && rec.error && rec.chunks == 0) {
        snprintf(err, errlen, "cannot write the JFR recording to '%s': %s; nothing was kept (no chunk was finished)",
                 path[0] ? path : rec.tmp_path, strerror(rec.error));
        rc = -1;
    } else if (rc == 0 && rec.out_of_memory) {
        snprintf(err, errlen, "out of memory while writing the JFR recording");
        rc = -1;
    }
    if (rc == 0) rc = deliver(path, &keep, err, errlen);
    if (rc != 0 && keep) {
        safe_file_keep(rec.fd);
        size_t len = strlen(err);
        if (!strstr(err, rec.tmp_path))
            snprintf(err + len, errlen - len, "; the recording is kept in '%s'", rec.tmp_path);
    } else if (rc != 0) {
        remove_temp();
    } else if (rec.error) {
        /* What was kept is a valid, shorter recording in its place; the session still reports the failure. */
        char kept[128];
        describe_kept(kept, sizeof(kept));
        snprintf(err, errlen, "the JFR recording written to %s is incomplete: writing stopped %llu s after its start "
                 "(%s); it holds the %s before that; %llu samples after it were dropped", path[0] ? path : "stdout",
                 (unsigned long long)(rec.stopped_ms - rec.start_ms) / 1000, strerror(rec.error), kept,
                 (unsigned long long)rec.dropped);
        rc = -1;
    } else {
        log_info("JFR recording written to %s (%llu samples, %d chunks)", path[0] ? path : "stdout",
                 (unsigned long long)rec.samples, rec.chunks);
    }
    if (rec.unwritable)
        log_warn("JFR: %llu samples of an event with no JFR event type were not written",
                 (unsigned long long)rec.unwritable);
    return rc;
}

/* jfrsync: the JDK's recording, stopped, goes after our chunks. Should that fail, the recording holds our
 * events alone, and the warning says so. */
static void merge_jdk_recording(void) {
    if (!jdk_recording_open()) return;
    char why[512];
    uint64_t added = 0;
    if (rec.error) {
        jdk_recording_discard();
        return;
    }
    if (jdk_recording_finish(rec.fd, rec.file_size, &added, why, sizeof(why)) == 0) {
        rec.file_size += added;
        log_info("jfrsync: the JDK's recording (%llu bytes) added to libprof's", (unsigned long long)added);
    } else {
        if (ftruncate(rec.fd, (off_t)rec.file_size) != 0) log_debug("JFR: cannot cut %s back", rec.tmp_path);
        log_warn("%s; the recording holds libprof's events only", why);
    }
}

int out_jfr_finish(const prof_options *o, uint64_t *samples, char *err, size_t errlen) {
    if (!rec.active) {
        snprintf(err, errlen, "no JFR recording is open");
        return -1;
    }
    stop_thread();
    pthread_mutex_lock(&rec.mutex);
    drain();
    sample_window_drain(true, emit_window, NULL);
    chunk_end(event_clock_now());
    pthread_mutex_unlock(&rec.mutex);
    merge_jdk_recording();
    *samples = rec.samples;
    int rc = deliver_finished(o, err, errlen);
    close_recording(false);
    return rc;
}

int out_jfr_roll(const prof_options *o, uint64_t *samples, char *err, size_t errlen) {
    if (!rec.active || rec.error || rec.out_of_memory) return 1;
    /* The writer thread waits on the mutex meanwhile; the handlers' records wait in the queue. */
    pthread_mutex_lock(&rec.mutex);
    drain();
    uint64_t ticks = event_clock_now(), nanos = clock_ns(CLOCK_REALTIME);
    chunk_end(ticks);
    if (rec.error || rec.out_of_memory) {
        pthread_mutex_unlock(&rec.mutex);
        return 1;
    }
    *samples = rec.samples;
    int rc = deliver_finished(o, err, errlen);
    /* The next recording: new files for the pattern as it expands now; the pools and tables go on. */
    if (rec.fd >= 0) close(rec.fd);
    if (rec.part_fd >= 0) close(rec.part_fd);
    rec.fd = rec.part_fd = -1;
    char why[512];
    if (open_temp(o, why, sizeof(why))) {
        pthread_mutex_unlock(&rec.mutex);
        stop_thread();
        close_recording(false);
        size_t len = rc ? strlen(err) : 0;
        snprintf(err + len, errlen - len, "%s%s", len ? "; " : "", why);
        return -1;
    }
    rec.file_size = 0;
    rec.samples = 0;
    rec.chunks = 0;
    rec.dropped = 0;
    rec.unwritable = 0;
    rec.start_ms = nanos / 1000000;
    chunk_begin(ticks, nanos);
    pthread_mutex_unlock(&rec.mutex);
    return rc;
}

void out_jfr_abort(void) {
    if (!rec.active) return;
    jdk_recording_discard();
    stop_thread();
    close_recording(true);
}
