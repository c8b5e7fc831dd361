/*
 * jfr_convert: turns the sampling events of a JFR recording (ours or the JDK's) into a profile (profile.h),
 * which the agent's own writers then write: one implementation of naming (names.h) and of every output
 * format. Frame naming follows the convention of jfr_types.h: frames of a Java frame type are
 * class.method (the options of names.h apply), other frames are their method name alone. Filters: time
 * range, thread states, include/exclude patterns. Used by jfrconv and the reader's tests and fuzz harness.
 */
#ifndef LIBPROF_JFR_CONVERT_H
#define LIBPROF_JFR_CONVERT_H

#include "jfr_cursor.h"
#include "jfr_sample.h"
#include "names.h"
#include "profile.h"

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define JFR_CONVERT_MAX_FILTERS 16
#define JFR_CONVERT_MAX_STATES 16

typedef struct {
    char text[256];
    regex_t re;          /* the pattern as a regular expression matching a whole frame name */
    bool has_re;
} jfr_filter;

typedef struct {
    names_style style;
    bool threads;        /* a [name tid=N] root frame per thread */
    bool reverse_stacks; /* leaf first */
    /* Which event of a recording that holds several (event_kind.h; async-profiler's rule): cpu_only:
     * jdk.ExecutionSample in STATE_DEFAULT, or every jdk.ExecutionSample of a chunk whose thread states
     * have no STATE_DEFAULT (the JDK's recordings); wall_only: samples in any other state. */
    bool cpu_only, wall_only;
    bool nativemem;      /* profiler.Malloc events instead of CPU samples, weighted by their size */
    bool leak;           /* nativemem: only allocations with no later profiler.Free of their address */
    double tail;         /* leak: the share of the recording's span at its end whose allocations are too young
                            to call leaks, and left out (async-profiler's --tail; 0.1 by default) */
    bool nativelock;     /* profiler.NativeLock events instead of CPU samples, weighted by their duration */
    bool trace;          /* jdk.MethodTrace events instead of CPU samples, weighted by their duration */
    bool latency;        /* --latency: only samples inside a traced call or span of latency_ns or more */
    uint64_t latency_ns;
    uint64_t latency_below_ns;   /* with latency: only calls shorter than this (0: no bound) */
    const struct jfr_latency *slow;   /* set by jfr_convert for --latency: the slow calls of the file */
    bool state_frames;   /* a [STATE_...] frame under the thread frame (thread_state.h) */
    bool alloc, live, lock;   /* --alloc, --live, --lock: which events instead of execution samples */
    bool lines;          /* Java frames split by source line: "class.method:LINE" */
    bool bci;            /* Java frames split by bytecode index: "class.method@BCI" */
    bool norm;           /* lambda and hidden class names without their generated numbers and addresses */
    bool source_lines;   /* each frame's lineNumber kept beside its name (profile_add_lines): viewer formats */
    bool sample_times;   /* each kept sample's start time recorded (profile_add_tick): timeline formats */
    bool classify;       /* a category frame under the thread and state frames (profile_classify.h), decided from
                            each frame's own type in the recording */
    uint64_t from_ns, to_ns;  /* wall-clock range of the samples kept (inclusive) */
    int include_count, exclude_count, state_count;
    jfr_filter include[JFR_CONVERT_MAX_FILTERS], exclude[JFR_CONVERT_MAX_FILTERS];
    char states[JFR_CONVERT_MAX_STATES][64];  /* upper case, without "STATE_"; a prefix of the state */
} jfr_convert_options;

typedef struct {
    uint64_t chunks, events, samples, kept;
    uint64_t out_of_range, other_state, filtered;
    uint64_t other_event;   /* samples of the event not chosen by --cpu / --wall */
    uint64_t cpu_seen, wall_seen;   /* samples of each kind in recordings that tell them apart (STATE_DEFAULT) */
    uint64_t weighted;   /* samples that carried a weight field */
    uint64_t outside_slow, slow_calls;   /* --latency: samples outside every slow call; slow intervals kept */
    /* The last file's unfinished last chunk, skipped (jfr_rchunk_unfinished): where it starts and its
     * bytes; 0 bytes when the file ended at a finished chunk. */
    uint64_t unfinished_at, unfinished_bytes;
    /* Events another choice would convert (indexed by the jfr_event_set that reads them; CPU for every
     * sampling event): what the warning suggests when the chosen events are not in the input. */
    uint64_t unread[JFR_EVENTS_TRACE + 1];
} jfr_convert_stats;

/* The flag that converts the events of 'set' ("--alloc"; "" for the CPU and wall samples, the default). */
const char *jfr_convert_set_flag(jfr_event_set set);

void jfr_convert_options_init(jfr_convert_options *o);

/* The events the options select (jfr_sample.h): native memory, else native locks, else lock, else live,
 * else alloc, else CPU samples. */
jfr_event_set jfr_convert_event_set(const jfr_convert_options *o);

/* What the selected events are and what their weight counts ("bytes", "ns", "samples"). */
const char *jfr_convert_event_names(const jfr_convert_options *o);
const char *jfr_convert_units(const jfr_convert_options *o);

/* What one sample is, in async-profiler's converter's words (cpu, allocations, locks, malloc): the
 * OpenTelemetry sample type. */
const char *jfr_convert_sample_kind(const jfr_convert_options *o);
const char *jfr_convert_counts(const jfr_convert_options *o);
void jfr_convert_options_free(jfr_convert_options *o);

/* A pattern as the agent's include=/exclude= take it ('*' at either end) or a regular expression (POSIX
 * extended) that matches a whole frame name; a frame matches if either form does. */
int jfr_convert_add_filter(jfr_convert_options *o, bool include, const char *pattern, char *err, size_t errlen);

/* A comma list of thread states (case-insensitive, "STATE_" optional, any prefix: "r" = RUNNABLE). */
int jfr_convert_add_states(jfr_convert_options *o, const char *list, char *err, size_t errlen);

/* The wall-clock span [start, end] of the finished chunks in a file, from their headers only. */
int jfr_convert_span(const uint8_t *data, size_t size, uint64_t *start_ns, uint64_t *end_ns, jfr_error *err);

/* Adds the samples of every chunk of one file to 'p'. An unfinished last chunk after at least one finished
 * one is skipped and reported in 'stats' (a cut file, a recording still being written); an unfinished
 * first chunk, or any other fault, is an error: -1 with 'err' naming the chunk and offset. */
int jfr_convert(const jfr_convert_options *o, const uint8_t *data, size_t size, profile *p,
                jfr_convert_stats *stats, jfr_error *err);

#endif
