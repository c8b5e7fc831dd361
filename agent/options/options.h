/*
 * options: the agent option grammar (async-profiler's spelling), parsed into a plain struct.
 *
 * Pure functions of their input so that the agent, the jprof CLI and the unit tests share one
 * implementation. Options are comma-separated: "start,event=cpu,interval=1ms,file=out.collapsed".
 */
#ifndef LIBPROF_OPTIONS_H
#define LIBPROF_OPTIONS_H

#include "event_kind.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define OPTIONS_MAX_FILTERS 16
#define OPTIONS_MAX_TRACE 16        /* trace= targets of one session */
#define OPTIONS_MAX_TID_RANGES 64
#define OPTIONS_ERROR_MAX 1024

typedef enum {
    ACTION_NONE = 0,
    ACTION_START,
    ACTION_RESUME,
    ACTION_STOP,
    ACTION_DUMP,
    ACTION_STATUS,
    ACTION_VERSION,
    ACTION_METRICS,     /* the counters in Prometheus' text format (metrics.c) */
} prof_action;

typedef enum {
    FORMAT_AUTO = 0,   /* from the file extension, text when there is none */
    FORMAT_COLLAPSED,
    FORMAT_TEXT,
    FORMAT_FLAMEGRAPH, /* interactive HTML flame graph (also "html", and the .html extension) */
    FORMAT_TREE,       /* interactive HTML call tree */
    FORMAT_JFR,        /* Java Flight Recorder recording, streamed while profiling (also the .jfr extension) */
    FORMAT_PPROF,      /* gzipped pprof profile.proto (.pb.gz, .pprof) */
    FORMAT_SPEEDSCOPE, /* speedscope JSON (.speedscope.json) */
    FORMAT_CPUPROFILE, /* Chrome DevTools .cpuprofile */
    FORMAT_GECKO,      /* Firefox Profiler Gecko JSON (.gecko.json) */
    FORMAT_OTLP,       /* OpenTelemetry profiles, a ProfilesData message (.otlp) */
    FORMAT_HEATMAP,    /* HTML heatmap: sample density over time above the flame graph of a selected range */
} prof_format;

typedef enum {
    CSTACK_DEFAULT = 0,  /* the best mode available: vm when the JVM describes what it needs, else dwarf, else fp */
    CSTACK_NO,           /* Java frames only */
    CSTACK_FP,           /* native frames by frame pointers, stitched to the Java frames */
    CSTACK_DWARF,        /* native frames by DWARF unwind tables (frame pointers where they have none) */
    CSTACK_VM,           /* one walk through native and Java frames: every segment in order, to the root */
} prof_cstack;

/* features=: walker features, bits of prof_options.features (the table's OPTION_CHOICE_SET row). */
typedef enum {
    PROF_FEATURE_AGCT = 1,   /* cstack=vm takes its Java frames from AsyncGetCallTrace instead of naming them */
    PROF_FEATURE_SIGTRAP = 2,   /* the perf engine's events must signal with SIGTRAP (perf_sigtrap.h): warned if not */
    PROF_FEATURE_NOSIGTRAP = 4,   /* ... never do (F_SETSIG): also the default, without either */
    PROF_FEATURE_STATS = 8,   /* the text report shows the walker's diagnostics (async-profiler's stats) */
    PROF_FEATURE_VTABLE = 16,   /* a sample in a vtable or itable stub gets its receiver's class (cstack=vm) */
    PROF_FEATURE_COMPTASK = 32,   /* a compiler thread's sample gets the method it compiles (cstack=vm) */
} prof_feature;

/* clock=: what JFR event times count (event_clock.h). */
typedef enum {
    PROF_CLOCK_DEFAULT = 0,  /* the JVM's Flight Recorder's clock when it counts TSC ticks, else monotonic */
    PROF_CLOCK_TSC,          /* the same, said outright: warned when the JVM's recorder does not count TSC ticks */
    PROF_CLOCK_MONOTONIC,    /* CLOCK_MONOTONIC nanoseconds */
} prof_clock;

typedef struct prof_options {
    prof_action action;
    char event[512];            /* "cpu", "ctimer", "itimer", "wall", a perf event name (perf_events.h), or
                                 * a method target to instrument (method_target.h) */
    bool event_given;           /* event= was given: on dump/stop it chooses which of the session's events a
                                 * text, collapsed or HTML output holds */
    /* Events recorded beside event= (async-profiler's event=cpu,wall or wall=20ms: the option named after
     * the kind turns it on); extra_intervals: their interval, 0 for the engine's default. */
    bool extra_events[EVENT_KIND_COUNT];
    uint64_t extra_intervals[EVENT_KIND_COUNT];
    /* filter=120-127;132: the thread ids wall-clock sampling is limited to (inclusive ranges); none: all */
    unsigned state_mask;        /* state=: a bit per thread_state kept (thread_state.h); 0: every state */
    bool states;                /* a frame per thread state under the thread frame: [STATE_SLEEPING] */
    int tid_range_count;
    int wall_threads;           /* wallthreads=: threads the wall engine visits per interval; 0: its default */
    uint32_t tid_ranges[OPTIONS_MAX_TID_RANGES][2];
    uint64_t interval_ns;       /* 0 = the engine's default; a count for counted events and method targets */
    bool interval_has_unit;     /* interval= carried a time suffix (ns, us, ms, s) */
    char file[1024];            /* output path pattern, %p and %t not yet expanded */
    prof_format format;
    int traces;                 /* text: how many hottest stacks; 0 = not asked for */
    int flat;                   /* text: how many top leaf frames; 0 = not asked for */
    bool threads;
    int jstackdepth;
    int jstackdepth_cut;        /* jstackdepth=N/M: a stack of N frames or more keeps M and a [truncated]
                                   root; 0 (or M = N): it keeps N, unmarked */
    int trace_count;            /* trace=pkg.Class.method[:threshold] targets, as written (trace_target.h) */
    char trace[OPTIONS_MAX_TRACE][512];
    int include_count;
    char include[OPTIONS_MAX_FILTERS][256];
    int exclude_count;
    char exclude[OPTIONS_MAX_FILTERS][256];
    bool simple, dot, sig, ann;
    bool lib;                   /* prefix native symbols with their library: libz.so.1`deflate */
    bool lines;                 /* Java frames named with their source line, "class.method:LINE" (text formats) */
    char title[256];
    bool total;                 /* counter: total weight instead of sample count */
    bool counter_given;         /* total or samples was given: a dump's own counter (async-profiler's dumpOtlp) */
    int timeout_s;              /* seconds; 0 = none */
    uint32_t timeout_clock;     /* timeout=23:00: stop at that time of day instead (clock_time.h); 0 = none */
    char log_file[1024];
    int log_level;              /* log_level enum from log.h */
    bool quiet;
    prof_cstack cstack;
    int features;               /* features=: prof_feature bits */
    double minwidth;            /* html: frames narrower than this percent of the total are not written */
    bool reverse;               /* html: start with stacks merged from the leaf (backtraces) */
    bool inverted;              /* flame graph: start as an icicle (root at the top) */
    char highlight[256];        /* flame graph: a regular expression the page opens searched for (jfrconv) */
    /* jfrconv's shaping of the profile it read (profile_reshape.h) */
    bool classify;              /* a category frame ([gc], [jit], [class_load], ...) under the thread frame */
    int skip;                   /* root-side frames left out of every stack */
    double grain;               /* coarsen: each stack's count to a multiple of this many samples; 0: off */
    bool alluser;               /* perf engine: sample user space only, no kernel frames */
    int target_cpu;             /* target-cpu=N: perf events count only while their thread runs on CPU N; -1: any */
    bool record_cpu;            /* record-cpu: a perf sample's stack ends in a [CPU-N] frame (the CPU it was taken on) */
    char fdtransfer[80];        /* fdtransfer=NAME: perf events opened by jprof's helper on this abstract unix
                                 * socket (perf_transfer.h); "": by the JVM */
    uint64_t chunk_size;        /* jfr: start a new chunk after this many bytes */
    uint64_t chunk_time_ns;     /* jfr: start a new chunk after this long */
    uint64_t alloc_bytes;       /* alloc[=BYTES]: the mean allocation sampling interval in bytes */
    bool live;                  /* alloc: only objects still reachable when the profile is written */
    bool nobatch;               /* jfr: wall samples as jdk.ExecutionSample, not profiler.WallClockSample */
    bool all;                   /* async-profiler's all: every event not given, at its default (options.c) */
    uint64_t lock_ns;           /* lock=: a sample each this many ns of accumulated waiting (0: every wait;
                                 * lock_sample.h) */
    uint64_t loop_ns;           /* loop=: one profile per period, 0 = none (profiler.c) */
    uint32_t loop_clock;        /* loop=*:00: a new profile at each such time of day instead (clock_time.h) */
    bool thread_filter;         /* filter: sample only the threads added through the API (thread_filter.h) */
    /* Native memory and native locks. */
    uint64_t nativemem;         /* nativemem=BYTES: sample every this many bytes allocated (0, the default:
                                 * every call) */
    uint64_t nativelock;        /* nativelock=DURATION: record every this many ns waited (default 10us) */
    bool nofree;                /* nativemem: do not hook free (allocations only) */
    bool leak;                  /* nativemem: the profile shows only what was not freed when it is written */
    /* jfrsync[=SETTINGS]: the JDK's own Flight Recording started with SETTINGS (default, profile, a .jfc
     * file, or +event+event) and merged with ours into one file (jdk_recording.h); "" = none */
    char jfrsync[512];
    char jfropts[64];           /* async-profiler's jfropts=BITS|mem (options_jfr_flags, docs/jfr.md) */
    /* proc[=INTERVAL]: sample the machine's processes into the JFR recording every this many seconds
     * (bare: 30; 0: not; -1: not given); all turns it on at 30 s when the output is JFR
     * (options_proc_interval) */
    int proc_s;
    /* ratelimit=CATEGORY:N;...: at most N events a second of each category named (options_rate_limits) */
    char ratelimit[160];
    int clock;                  /* clock=: the JFR event clock (prof_clock) */
    int metrics_format;         /* metricsformat=: how the metrics action spells them (prof_metrics_format) */
    /* begin=/end=: sampling only between a call of one native function and a call of the other (window.h);
     * ttsp: those two are HotSpot's safepoint synchronisation; nostop: the windows are recorded, sampling
     * goes on outside them */
    char begin[256], end[256];
    bool ttsp, nostop;
    /* async-profiler options libprof does not have and ignores, space-separated, as given (options_parse
     * accepts them so that an async-profiler command line starts the JVM; the agent warns about them) */
    char ignored[256];
} prof_options;

/* Notes an ignored async-profiler option in o->ignored ('n' characters of 'text', after 'prefix'), once. */
void options_note_ignored(prof_options *o, const char *prefix, const char *text, size_t n);
/* Why libprof refuses async-profiler's option 'name' and what to write instead, or NULL when it is not one of
 * the refused ones (jprof says the same for asprof's --NAME). */
const char *options_async_profiler_refusal(const char *name);

#define OPTIONS_DEFAULT_INTERVAL_NS 10000000ULL
#define OPTIONS_DEFAULT_JSTACKDEPTH 2048
#define OPTIONS_DEFAULT_ALLOC_BYTES 524287ULL   /* async-profiler's default: 512 KiB */
#define OPTIONS_DEFAULT_PROC_S 30               /* proc: async-profiler's default, seconds */
#define OPTIONS_DEFAULT_LOCK_NS 10000ULL        /* async-profiler's default: 10 us */
#define OPTIONS_DEFAULT_TOP 200   /* traces / flat without a count */
#define OPTIONS_MAX_JSTACKDEPTH 65536
#define OPTIONS_DEFAULT_CHUNK_SIZE (100ULL << 20)               /* async-profiler's default: 100m */
#define OPTIONS_DEFAULT_CHUNK_TIME_NS (3600ULL * 1000000000ULL)  /* 1h */
#define OPTIONS_MIN_CHUNK_SIZE 1024ULL
#define OPTIONS_MIN_CHUNK_TIME_NS 1000000000ULL
#define OPTIONS_DEFAULT_NATIVELOCK_NS 10000ULL   /* async-profiler's default lock threshold: 10 us */

void options_init(prof_options *o);

/* Parses 'text' (may be NULL or empty) into 'o' (initialised first). On error returns -1 and writes one
 * line into 'err' naming the option, its value and what is accepted. */
int options_parse(const char *text, prof_options *o, char *err, size_t errlen);

/* Parses a duration with an optional ns/us/ms/s suffix (no suffix = 'bare_unit_ns'). */
int options_parse_duration(const char *s, uint64_t bare_unit_ns, uint64_t *out_ns);

/* Parses a percent: a decimal number from 0 to 100 (digits and a point only, no '%' sign). */
int options_parse_percent(const char *s, double *out);

/* Parses a size in bytes with an optional k/m/g suffix (binary multiples, either case). */
int options_parse_size(const char *s, uint64_t *out);

/* The format that will be written: explicit, else from the extension of 'file', else text. */
prof_format options_effective_format(const prof_options *o);

const char *options_action_name(prof_action a);

/* The seconds between two samplings of the machine's processes (proc=, or all's 30 s in a JFR recording),
 * 0 when the session samples none. */
int options_proc_interval(const prof_options *o);

/* metricsformat=: libprof's Prometheus text with # lines and libprof_ names (default), or async-profiler's
 * unprefixed 'name value' lines, which its API's callers get by default (api_jni.c). */
typedef enum { METRICS_PROMETHEUS = 0, METRICS_ASPROF } prof_metrics_format;

/* ratelimit='s categories: the event kinds (cpu wall alloc lock nativemem nativelock trace), then span. */
#define OPTIONS_RATE_SPAN EVENT_KIND_COUNT
#define OPTIONS_RATE_CATEGORIES (EVENT_KIND_COUNT + 1)
/* The limits ratelimit= gives, per category (-1: none). -1 when the value is malformed; then err names the
 * bad part and what is accepted. */
int options_rate_limits(const char *text, int64_t limits[OPTIONS_RATE_CATEGORIES], char *err, size_t errlen);
/* The name of a category ("cpu", "span"). */
const char *options_rate_category_name(unsigned category);

/* async-profiler's jfropts bits; those naming events libprof never writes hold by themselves. */
enum {
    JFR_OPTS_NO_SYSTEM_INFO = 0x1, JFR_OPTS_NO_SYSTEM_PROPS = 0x2, JFR_OPTS_NO_NATIVE_LIBS = 0x4,
    JFR_OPTS_NO_CPU_LOAD = 0x8, JFR_OPTS_NO_HEAP_SUMMARY = 0x10, JFR_OPTS_IN_MEMORY = 0x100,
};
/* The jfropts bits asked for (0 without jfropts); -1 when the value is neither a number nor 'mem'. */
long options_jfr_flags(const prof_options *o);
const char *options_format_name(prof_format f);
const char *options_cstack_name(prof_cstack c);

/* The event kind event= records: EVENT_WALL for "wall", EVENT_CPU for every execution event. */
event_kind options_event_kind(const char *event);

/* loop= given, as a period or a time of day. */
static inline bool options_loops(const prof_options *o) {
    return o->loop_ns || o->loop_clock;
}

#endif
