/*
 * options_table: the rows, in the order jprof's help lists them (the agent's "accepted:" list and
 * jfrconv's help follow the same order). Help texts wrap with continuation lines indented to each tool's
 * text column.
 */
#include "options_table.h"

#include "log.h"
#include "options.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#define FIELD(field) offsetof(prof_options, field)
#define TEXT_CAP(field) sizeof(((prof_options *)0)->field)
#define SECOND 1000000000ULL
#define MORE "\n                     "   /* a jprof help text's next line, under the first */
#define JMORE "\n                       "   /* the same in jfrconv's help */

/* The parser stores a choice through an int, so an enum field must be one. */
_Static_assert(sizeof(prof_cstack) == sizeof(int), "cstack is set as an int");

/* Listed in the order the error message gives them; vm first, as the mode to reach for. */
static const options_choice cstack_choices[] = {
    {"vm", CSTACK_VM, "vmx"},   /* async-profiler's vmx adds the native frames between Java frames: vm always does */
    {"dwarf", CSTACK_DWARF, NULL},
    {"fp", CSTACK_FP, NULL},
    {"no", CSTACK_NO, NULL},
    {NULL, 0, NULL},
};

static const options_choice loglevel_choices[] = {
    {"debug", LOG_DEBUG, NULL}, {"info", LOG_INFO, NULL},   {"warn", LOG_WARN, NULL},
    {"error", LOG_ERROR, NULL}, {"none", LOG_NONE, NULL},   {NULL, 0, NULL},
};

/* jfrconv's -o: the formats it writes (not jfr), stored in prof_options.format. */
_Static_assert(sizeof(prof_format) == sizeof(int), "format is set as an int");
static const options_choice format_choices[] = {
    {"collapsed", FORMAT_COLLAPSED, NULL}, {"flamegraph", FORMAT_FLAMEGRAPH, "html"}, {"tree", FORMAT_TREE, NULL},
    {"text", FORMAT_TEXT, NULL},           {"pprof", FORMAT_PPROF, NULL},              {"speedscope", FORMAT_SPEEDSCOPE, NULL},
    {"cpuprofile", FORMAT_CPUPROFILE, NULL}, {"gecko", FORMAT_GECKO, NULL},            {"otlp", FORMAT_OTLP, NULL},
    {"heatmap", FORMAT_HEATMAP, NULL},       {NULL, 0, NULL},
};

static const options_choice clock_choices[] = {
    {"tsc", PROF_CLOCK_TSC, NULL}, {"monotonic", PROF_CLOCK_MONOTONIC, NULL}, {NULL, 0, NULL},
};

static const options_choice metrics_format_choices[] = {
    {"prometheus", METRICS_PROMETHEUS, NULL}, {"asprof", METRICS_ASPROF, NULL}, {NULL, 0, NULL},
};

/* Bits of prof_options.features, joined by '+' in async-profiler's spelling (features=agct). */
static const options_choice feature_choices[] = {
    {"agct", PROF_FEATURE_AGCT, NULL},
    {"sigtrap", PROF_FEATURE_SIGTRAP, NULL},
    {"nosigtrap", PROF_FEATURE_NOSIGTRAP, NULL},
    {"stats", PROF_FEATURE_STATS, NULL},
    {"vtable", PROF_FEATURE_VTABLE, NULL},
    {"comptask", PROF_FEATURE_COMPTASK, NULL},
    {NULL, 0, NULL},
};

/* A row names the columns it sets; the others are 0 (NULL, OPTION_OWN_NONE, JFRCONV_SETS_OUTPUT). */
const options_spec options_table[] = {
    {.kind = OPTION_DURATION, .jprof = "-d", .jprof_arg = "N",
     .jprof_help = "profile for N seconds (start, wait, stop); the default action, for 60 s when -d is" MORE
     "not given; a countdown on stderr when it is a terminal; Ctrl-C," MORE
     "SIGTERM or SIGHUP stop early and still write the profile; the agent" MORE
     "stops by itself N+5 s after the start should jprof be killed", .own = OPTION_OWN_DURATION},
    {.name = "start", .kind = OPTION_ACTION},
    {.name = "resume", .kind = OPTION_ACTION},
    {.name = "stop", .kind = OPTION_ACTION},
    {.name = "dump", .kind = OPTION_ACTION},
    {.name = "status", .kind = OPTION_ACTION},
    {.name = "version", .kind = OPTION_ACTION},
    /* The metrics action and continuous profiling (loop=). */
    {.name = "metrics", .kind = OPTION_ACTION},
    {.name = "loop", .kind = OPTION_DURATION, .field = FIELD(loop_ns), .jprof = "--loop", .jprof_arg = "TIME",
     .jprof_help = "continuous profiling: a new profile file every TIME until stopped (30s, 1h);" MORE
     "name them apart with %t, %n (sequence) or %n{MAX} (rolling); or at each time of day TIME" MORE
     "(*:00 every hour, 00:00 every midnight)", .probe = "10", .min = SECOND, .unit = SECOND,
     .clock_field = FIELD(loop_clock)},
    {.name = "event", .kind = OPTION_EVENT, .field = FIELD(event), .jprof = "-e", .jprof_arg = "EVENT",
     .jprof_help = "sampling event: cpu (default), ctimer, itimer, wall, alloc, lock (see 'jprof" MORE
     "list'), or Java methods to instrument: pkg.Class.method, pkg.Class.*;" MORE
     "-e cpu,wall records both (a .jfr holds every event, other formats the first)", .probe = "cpu",
     .cap = TEXT_CAP(event)},
    /* An event kind beside event=: alone (event=cpu,wall) or with its interval (wall=20ms); jprof's --wall
     * always with one. The row's kind parses the value into extra_intervals[kind]. */
    {.name = "wall", .kind = OPTION_DURATION, .field = FIELD(extra_intervals[EVENT_WALL]), .jprof = "--wall",
     .jprof_arg = "INTERVAL", .jprof_help = "wall-clock profiling beside -e (e.g. -e cpu --wall 50ms -f both.jfr)",
     .probe = "50ms", .min = 1, .unit = 1, .extra_event = EVENT_WALL},
    {.name = "wallthreads", .kind = OPTION_COUNT, .field = FIELD(wall_threads), .jprof = "--wallthreads",
     .jprof_arg = "N", .jprof_help = "wall clock: threads sampled per interval, in turn (default 32)", .probe = "16",
     .min = 1, .max = 65536},
    /* alloc and lock: event kinds beside event= like wall; their values go to their own fields (defaults set
     * by options_init: 512k, 10us). Without event=, the first of them given is the session's event. */
    {.name = "alloc", .kind = OPTION_SIZE, .field = FIELD(alloc_bytes), .jprof = "--alloc", .jprof_arg = "BYTES",
     .jprof_help = "allocation profiling: a sample every BYTES allocated on average (default" MORE
     "512k), through the JVM's own sampling (JDK 11+)", .probe = "512k", .min = 1, .max = 0x7fffffffULL,
     .extra_event = EVENT_ALLOC},
    {.kind = OPTION_FLAG, .jfrconv_long = "--alloc",
     .jfrconv_help = "allocation samples (jdk.ObjectAllocationSample; the TLAB events where a" JMORE
     "chunk has none), weighted by bytes", .jfrconv_sets = JFRCONV_SETS_ALLOC_ONLY},
    {.name = "all", .kind = OPTION_FLAG, .field = FIELD(all), .jprof = "--all",
     .jprof_help = "every event at once: cpu (unless -e names one), wall, alloc with live, lock," MORE
     "nativemem=512k, nativelock; any of them given sets its interval", .probe = ""},
    {.name = "nobatch", .kind = OPTION_FLAG, .field = FIELD(nobatch), .jprof = "--nobatch",
     .jprof_help = "jfr: wall-clock samples as jdk.ExecutionSample (default profiler.WallClockSample)",
     .probe = ""},
    {.name = "live", .kind = OPTION_FLAG, .field = FIELD(live), .jprof = "--live",
     .jprof_help = "alloc: only objects still reachable when the profile is written", .probe = "",
     .jfrconv_long = "--live",
     .jfrconv_help = "objects alive at the recording's end (profiler.LiveObject of alloc,live;" JMORE
     "jdk.OldObjectSample), by size"},
    {.name = "lock", .kind = OPTION_DURATION, .field = FIELD(lock_ns), .jprof = "--lock", .jprof_arg = "DURATION",
     .jprof_help = "lock profiling: contended waits (monitors, locks' parks), a sample each" MORE
     "DURATION of accumulated waiting (default 10us; 0: every wait)", .probe = "10us", .unit = 1,
     .extra_event = EVENT_LOCK},
    {.kind = OPTION_FLAG, .jfrconv_long = "--lock",
     .jfrconv_help = "lock samples (jdk.JavaMonitorEnter, jdk.ThreadPark), weighted by ns waited",
     .jfrconv_sets = JFRCONV_SETS_LOCK_ONLY},
    {.name = "interval", .kind = OPTION_DURATION, .field = FIELD(interval_ns), .jprof = "-i", .jprof_arg = "INTERVAL",
     .jprof_help = "sampling interval: 10ms, 500us, 1s, or a bare number of nanoseconds;" MORE
     "with -e pkg.Class.method: record every Nth call", .probe = "10ms", .min = 1, .unit = 1,
     .unit_field = FIELD(interval_has_unit)},
    {.name = "file", .kind = OPTION_FILE, .field = FIELD(file), .jprof = "-f", .jprof_arg = "FILE",
     .jprof_help = "write the profile to FILE (in the JVM's file system, written by the JVM's" MORE
     "user; %p = pid, %t = timestamp, %n = loop period, %n{MAX} = period modulo" MORE
     "MAX, %{NAME} = environment variable); without -f it goes to stdout", .probe = "x", .own = OPTION_OWN_FILE,
     .cap = TEXT_CAP(file)},
    {.kind = OPTION_TEXT, .jprof = "-o", .jprof_arg = "FORMAT",
     .jprof_help = "output format, passed to the agent: collapsed, flamegraph, tree, text, jfr," MORE
     "pprof, speedscope, cpuprofile, gecko, otlp, heatmap, traces[=N], flat[=N];" MORE
     "default: from the -f extension, else text", .own = OPTION_OWN_FORMAT},
    /* jfrconv's formats: every one it can write, by the name -o takes (the agent's flag rows below). */
    {.kind = OPTION_CHOICE, .field = FIELD(format), .jfrconv = "-o", .jfrconv_long = "--output",
     .jfrconv_arg = "FORMAT",
     .jfrconv_help = "output format (default: from the output's extension, else text)" JMORE "accepted",
     .choices = format_choices},
    {.name = "collapsed", .kind = OPTION_FLAG, .format = FORMAT_COLLAPSED},
    {.name = "text", .kind = OPTION_FLAG, .format = FORMAT_TEXT},
    {.name = "traces", .kind = OPTION_COUNT, .field = FIELD(traces), .format = FORMAT_TEXT, .min = 1, .max = 1000000,
     .dflt = OPTIONS_DEFAULT_TOP},
    {.name = "flat", .kind = OPTION_COUNT, .field = FIELD(flat), .format = FORMAT_TEXT, .min = 1, .max = 1000000,
     .dflt = OPTIONS_DEFAULT_TOP},
    {.name = "threads", .kind = OPTION_FLAG, .field = FIELD(threads), .jprof = "-t",
     .jprof_help = "profile threads separately", .probe = "", .jfrconv = "-t", .jfrconv_long = "--threads",
     .jfrconv_help = "a root frame per thread: [name tid=N]"},
    {.name = "state", .kind = OPTION_STATES, .field = FIELD(state_mask), .jfrconv = "-s", .jfrconv_long = "--state",
     .jfrconv_arg = "LIST",
     .jfrconv_help = "only samples in these thread states, e.g. RUNNABLE,SLEEPING (any case," JMORE
     "STATE_ optional, a prefix is enough: -s r)", .jfrconv_sets = JFRCONV_SETS_STATES},
    {.name = "filter", .kind = OPTION_TIDS, .field = FIELD(tid_ranges), .jprof = "--filter", .jprof_arg = "TIDS",
     .jprof_help = "sample only these thread ids, e.g. 120-127;132 (';' between); bare" MORE
     "(agent option): the threads the Java API adds",
     .probe = "1", .max = OPTIONS_MAX_TID_RANGES, .count_field = FIELD(tid_range_count)},
    {.name = "states", .kind = OPTION_FLAG, .field = FIELD(states), .jfrconv_long = "--states",
     .jfrconv_help = "a frame per thread state under the thread: [STATE_SLEEPING]"},
    {.name = "jstackdepth", .kind = OPTION_COUNT, .field = FIELD(jstackdepth), .jprof = "-j", .jprof_arg = "N[/M]",
     .jprof_help = "maximum stack depth, all frames (default 2048); N/M: a stack that deep keeps" MORE
     "M frames under [truncated]", .probe = "64", .min = 1,
     .max = OPTIONS_MAX_JSTACKDEPTH, .slash_field = FIELD(jstackdepth_cut)},
    {.name = "include", .kind = OPTION_PATTERN, .field = FIELD(include), .jprof = "-I", .jprof_arg = "PATTERN",
     .jprof_help = "keep only stacks with a frame matching PATTERN (repeatable; * at ends)", .probe = "a",
     .jfrconv = "-I", .jfrconv_long = "--include", .jfrconv_arg = "PAT",
     .jfrconv_help = "only stacks with a frame matching PAT (repeatable)", .cap = TEXT_CAP(include[0]),
     .count_field = FIELD(include_count), .jfrconv_sets = JFRCONV_SETS_INCLUDE},
    {.name = "exclude", .kind = OPTION_PATTERN, .field = FIELD(exclude), .jprof = "-X", .jprof_arg = "PATTERN",
     .jprof_help = "drop stacks with a frame matching PATTERN (repeatable)", .probe = "a", .jfrconv = "-X",
     .jfrconv_long = "--exclude", .jfrconv_arg = "PAT",
     .jfrconv_help = "drop stacks with a frame matching PAT (repeatable)" JMORE
     "PAT: the agent's pattern ('*' at either end: '*HashMap*') or a regular" JMORE
     "expression matching a whole frame name ('java/util/.*\\.get')", .cap = TEXT_CAP(exclude[0]),
     .count_field = FIELD(exclude_count), .jfrconv_sets = JFRCONV_SETS_EXCLUDE},
    {.kind = OPTION_TIME, .jfrconv_long = "--from", .jfrconv_arg = "TIME",
     .jfrconv_help = "only samples at or after TIME", .jfrconv_sets = JFRCONV_SETS_FROM},
    {.kind = OPTION_TIME, .jfrconv_long = "--to", .jfrconv_arg = "TIME",
     .jfrconv_help = "only samples at or before TIME" JMORE
     "TIME: from the recording's start: 10s, 500ms, 2m, 1500 (ms); from its end:" JMORE
     "-10s; absolute: epoch milliseconds (1700000000000), 2026-11-22T10:15:00[Z]," JMORE
     "10:15:00 (local time of day)", .jfrconv_sets = JFRCONV_SETS_TO},
    {.kind = OPTION_FLAG, .jfrconv_long = "--cpu",
     .jfrconv_help = "CPU samples only: jdk.ExecutionSample in STATE_DEFAULT where the recording" JMORE
     "has wall samples too, every jdk.ExecutionSample otherwise (not" JMORE
     "jdk.NativeMethodSample)", .jfrconv_sets = JFRCONV_SETS_CPU_ONLY},
    {.kind = OPTION_FLAG, .jfrconv_long = "--wall",
     .jfrconv_help = "wall-clock samples only: jdk.ExecutionSample in any state but" JMORE
     "STATE_DEFAULT, async-profiler's profiler.WallClockSample", .jfrconv_sets = JFRCONV_SETS_WALL_ONLY},
    /* jfrconv only: frame naming by line, bci and normalised names, highlight, diff, classify, skip, grain. */
    {.kind = OPTION_FLAG, .jfrconv_long = "--lines",
     .jfrconv_help = "Java frames split by source line: class.method:LINE", .jfrconv_sets = JFRCONV_SETS_LINES},
    {.kind = OPTION_FLAG, .jfrconv_long = "--bci",
     .jfrconv_help = "Java frames split by bytecode index: class.method@BCI", .jfrconv_sets = JFRCONV_SETS_BCI},
    {.kind = OPTION_FLAG, .jfrconv_long = "--norm",
     .jfrconv_help = "lambda and hidden class names without generated numbers and" JMORE
     "addresses (Main$$Lambda$14/0x0000000800c03000 -> Main$$Lambda)", .jfrconv_sets = JFRCONV_SETS_NORM},
    {.kind = OPTION_REGEX, .field = FIELD(highlight), .jfrconv_long = "--highlight", .jfrconv_arg = "REGEX",
     .jfrconv_help = "flame graph: open with the frames matching REGEX highlighted (searched)",
     .cap = TEXT_CAP(highlight)},
    {.kind = OPTION_FLAG, .jfrconv_long = "--diff",
     .jfrconv_help = "compare two profiles: jfrconv --diff BASE NEW OUTPUT (each a .jfr or" JMORE
     "collapsed stacks); OUTPUT .html: a flame graph coloured by change," JMORE
     "else text; values per second of recording, or shares", .jfrconv_sets = JFRCONV_SETS_DIFF},
    /* jfrconv's shaping of the profile (profile_reshape.h): async-profiler's jfrconv flags; its agent has none */
    {.kind = OPTION_FLAG, .field = FIELD(classify), .jfrconv_long = "--classify",
     .jfrconv_help = "a category frame under the thread frame: [gc], [jit], [vm], [class_load]," JMORE
     "[class_init], [class_resolve], [class_verify], [lambda_init], [Interpreter]," JMORE
     "[c1_comp], [c2_comp], [java], [native], [kernel] (docs/jfrconv.md: the rules)"},
    {.kind = OPTION_COUNT, .field = FIELD(skip), .jfrconv_long = "--skip", .jfrconv_arg = "N",
     .jfrconv_help = "leave out the N bottom (root-side) frames of every stack, thread and" JMORE
     "category frames included", .min = 0, .max = OPTIONS_MAX_JSTACKDEPTH},
    {.kind = OPTION_NUMBER, .field = FIELD(grain), .jfrconv_long = "--grain", .jfrconv_arg = "X",
     .jfrconv_help = "coarsen: each stack's count rounded to a multiple of X samples (the" JMORE
     "remainder carried on), stacks that round to none left out", .min = 1},
    /* jfrconv's native event selections. */
    {.kind = OPTION_FLAG, .jfrconv_long = "--nativemem",
     .jfrconv_help = "native memory: profiler.Malloc events (weight: bytes) instead of CPU samples",
     .jfrconv_sets = JFRCONV_SETS_NATIVEMEM},
    {.kind = OPTION_FLAG, .jfrconv_long = "--nativelock",
     .jfrconv_help = "native locks: profiler.NativeLock events (weight: ns waited)",
     .jfrconv_sets = JFRCONV_SETS_NATIVELOCK},
    {.name = "simple", .kind = OPTION_FLAG, .field = FIELD(simple), .jprof = "-s",
     .jprof_help = "simple class names instead of fully qualified ones", .probe = "", .jfrconv_long = "--simple",
     .jfrconv_help = "class names without their package"},
    {.name = "dot", .kind = OPTION_FLAG, .field = FIELD(dot), .jfrconv_long = "--dot",
     .jfrconv_help = "java.util.HashMap.get instead of java/util/HashMap.get"},
    {.name = "sig", .kind = OPTION_FLAG, .field = FIELD(sig), .jprof = "-g", .jprof_help = "print method signatures",
     .probe = "", .jfrconv_long = "--sig", .jfrconv_help = "append method descriptors"},
    {.name = "ann", .kind = OPTION_FLAG, .field = FIELD(ann), .jprof = "-a",
     .jprof_help = "annotate Java frames (_[j] _[i] ...)", .probe = "", .jfrconv_long = "--ann",
     .jfrconv_help = "annotate frames: _[j] JIT compiled, _[i] inlined, _[0] interpreted, _[k] kernel"},
    {.name = "lib", .kind = OPTION_FLAG, .field = FIELD(lib), .jprof = "-l",
     .jprof_help = "prepend the library name to native frames", .probe = ""},
    {.name = "title", .kind = OPTION_TEXT, .field = FIELD(title), .jprof = "--title", .jprof_arg = "TEXT",
     .jprof_help = "title of the flame graph / report", .probe = "x", .jfrconv_long = "--title",
     .jfrconv_arg = "TITLE", .jfrconv_help = "title of the flame graph or report", .cap = TEXT_CAP(title)},
    {.name = "samples", .kind = OPTION_FLAG, .field = FIELD(total), .off = true},
    {.name = "flamegraph", .kind = OPTION_FLAG, .format = FORMAT_FLAMEGRAPH},
    {.name = "html", .kind = OPTION_FLAG, .format = FORMAT_FLAMEGRAPH},
    {.name = "tree", .kind = OPTION_FLAG, .format = FORMAT_TREE},
    {.name = "minwidth", .kind = OPTION_PERCENT, .field = FIELD(minwidth), .jprof = "--minwidth", .jprof_arg = "PCT",
     .jprof_help = "skip flame graph frames narrower than PCT percent", .probe = "1", .jfrconv_long = "--minwidth",
     .jfrconv_arg = "P", .jfrconv_help = "flame graph: leave out frames narrower than P percent"},
    {.name = "reverse", .kind = OPTION_FLAG, .field = FIELD(reverse), .jprof = "--reverse",
     .jprof_help = "reverse stacks (flame graph of callers)", .probe = "", .jfrconv = "-r",
     .jfrconv_long = "--reverse",
     .jfrconv_help = "flame graph: open with stacks merged from the leaf; other formats: stacks" JMORE
     "written leaf first"},
    {.name = "inverted", .kind = OPTION_FLAG, .field = FIELD(inverted), .jprof = "--inverted",
     .jprof_help = "icicle graph: stacks grow downwards", .probe = "", .jfrconv_long = "--inverted",
     .jfrconv_help = "flame graph: open as an icicle"},
    /* nativemem and nativelock take their value after the flag in jprof (asprof's --nativemem N);
     * the agent also accepts them bare (their fields keep options_init's: every call, 10us). Event kinds
     * beside event=, or the session's first event without it (options.c settle_native_events). */
    {.name = "nativemem", .kind = OPTION_SIZE, .field = FIELD(nativemem), .jprof = "--nativemem",
     .jprof_arg = "BYTES",
     .jprof_help = "native memory: sample malloc, calloc, realloc, posix_memalign, aligned_alloc" MORE
     "every BYTES allocated (k, m, g; 0: every call), with their stacks", .probe = "0",
     .extra_event = EVENT_NATIVEMEM},
    {.name = "nofree", .kind = OPTION_FLAG, .field = FIELD(nofree), .jprof = "--nofree",
     .jprof_help = "nativemem: do not hook free (allocations only)", .probe = ""},
    {.name = "leak", .kind = OPTION_FLAG, .field = FIELD(leak), .jprof = "--leak",
     .jprof_help = "nativemem: show only allocations not freed when the profile is written", .probe = "",
     .jfrconv_long = "--leak",
     .jfrconv_help = "with --nativemem: only allocations without a later profiler.Free of their address"},
    {.kind = OPTION_TEXT, .jfrconv_long = "--tail", .jfrconv_arg = "RATIO",
     .jfrconv_help = "with --leak: leave out allocations made in the last RATIO of the recording (0.2" JMORE
     "or 20%; 10% by default): too young to call leaks", .jfrconv_sets = JFRCONV_SETS_TAIL},
    {.name = "nativelock", .kind = OPTION_DURATION, .field = FIELD(nativelock), .jprof = "--nativelock",
     .jprof_arg = "TIME",
     .jprof_help = "native locks: contended pthread mutexes and rwlocks, a sample every TIME" MORE
     "waited (10us without a value), weighted by the time waited", .probe = "10us", .unit = 1,
     .extra_event = EVENT_NATIVELOCK},
    /* trace=: an event kind beside event= like nativelock, repeatable; its value is the method and threshold. */
    {.name = "trace", .kind = OPTION_TRACE, .field = FIELD(trace), .jprof = "--trace", .jprof_arg = "METHOD",
     .jprof_help = "trace calls of METHOD (pkg.Class.method[(descriptor)][:threshold], '*' at" MORE
     "ends): each call taking threshold or more recorded with its duration and stack (repeatable)",
     .probe = "a.B.c:10ms", .cap = TEXT_CAP(trace[0]), .count_field = FIELD(trace_count),
     .extra_event = EVENT_TRACE},
    {.kind = OPTION_FLAG, .jfrconv_long = "--trace",
     .jfrconv_help = "method traces (jdk.MethodTrace), weighted by their duration",
     .jfrconv_sets = JFRCONV_SETS_TRACE_ONLY},
    {.kind = OPTION_DURATION, .jfrconv_long = "--latency", .jfrconv_arg = "TIME",
     .jfrconv_help = "only samples taken on a thread inside one of its traced calls (jdk.MethodTrace," JMORE
     "profiler.Span) lasting TIME or more (a bare number: ms)", .jfrconv_sets = JFRCONV_SETS_LATENCY},
    {.kind = OPTION_DURATION, .jfrconv_long = "--latency-diff", .jfrconv_arg = "TIME",
     .jfrconv_help = "compare, in one recording, the samples inside traced calls (or spans) shorter" JMORE
     "than TIME (base) with those inside calls of TIME or more: jfrconv" JMORE
     "--latency-diff 100ms app.jfr diff.html (record with trace=M:0 or a low" JMORE
     "threshold so that fast calls are traced too); shares of each side",
     .jfrconv_sets = JFRCONV_SETS_LATENCY_DIFF},
    {.name = "total", .kind = OPTION_FLAG, .field = FIELD(total), .jprof = "--total",
     .jprof_help = "count total time instead of samples", .probe = "", .jfrconv_long = "--total",
     .jfrconv_help = "count the events' weight (where they have one) instead of samples"},
    {.name = "alluser", .kind = OPTION_FLAG, .field = FIELD(alluser), .jprof = "--all-user",
     .jprof_help = "only user-mode events", .probe = ""},
    {.name = "target-cpu", .kind = OPTION_COUNT, .field = FIELD(target_cpu), .jprof = "--target-cpu",
     .jprof_arg = "N", .jprof_help = "perf events count only while their thread runs on CPU N (0 is the first)",
     .probe = "0", .min = 0, .max = 65535},
    {.name = "fdtransfer", .kind = OPTION_TEXT, .field = FIELD(fdtransfer), .cap = TEXT_CAP(fdtransfer)},
    {.kind = OPTION_FLAG, .jprof = "--fdtransfer", .own = OPTION_OWN_FDTRANSFER,
     .jprof_help = "perf events opened by a helper jprof starts with its own privileges and passed" MORE
     "to the JVM (for a JVM that may not open them, or not with kernel frames)"},
    {.name = "record-cpu", .kind = OPTION_FLAG, .field = FIELD(record_cpu), .jprof = "--record-cpu",
     .jprof_help = "perf events: a root frame [CPU-N] per sample, the CPU it was taken on", .probe = ""},
    {.name = "cstack", .kind = OPTION_CHOICE, .field = FIELD(cstack), .jprof = "--cstack", .jprof_arg = "MODE",
     .jprof_help = "how to walk stacks (default: the best the JVM allows)", .probe = "dwarf",
     .choices = cstack_choices},
    {.name = "features", .kind = OPTION_CHOICE_SET, .field = FIELD(features), .jprof = "-F",
     .jprof_arg = "LIST",
     .jprof_help = "sampling features, several joined by '+' (agct: cstack=vm takes Java" MORE
     "frames from AsyncGetCallTrace instead of naming them itself; sigtrap:" MORE
     "perf events signal with SIGTRAP, warned where it cannot be (opt-in: a foreign SIGTRAP handler" MORE
     "may receive them); nosigtrap: never, the default; vtable: the receiver's class above" MORE
     "a vtable or itable stub; comptask: a compiler thread's method being compiled)", .probe = "agct", .choices = feature_choices},
    {.name = "timeout", .kind = OPTION_DURATION, .field = FIELD(timeout_s), .jprof = "--timeout",
     .jprof_arg = "DURATION",
     .jprof_help = "stop the profiler by itself after DURATION (start), or at a time of day (23:00)", .probe = "10",
     .min = SECOND, .max = INT_MAX * SECOND, .unit = SECOND, .seconds = true, .clock_field = FIELD(timeout_clock)},
    {.name = "log", .kind = OPTION_TEXT, .field = FIELD(log_file), .cap = TEXT_CAP(log_file)},
    {.name = "loglevel", .kind = OPTION_CHOICE, .field = FIELD(log_level), .jprof = "-L", .jprof_arg = "LEVEL",
     .jprof_help = "agent log level", .probe = "info", .choices = loglevel_choices},
    {.name = "quiet", .kind = OPTION_FLAG, .field = FIELD(quiet)},
    {.name = "jfr", .kind = OPTION_FLAG, .format = FORMAT_JFR},
    {.name = "pprof", .kind = OPTION_FLAG, .format = FORMAT_PPROF},
    {.name = "speedscope", .kind = OPTION_FLAG, .format = FORMAT_SPEEDSCOPE},
    {.name = "cpuprofile", .kind = OPTION_FLAG, .format = FORMAT_CPUPROFILE},
    {.name = "gecko", .kind = OPTION_FLAG, .format = FORMAT_GECKO},
    /* The JDK's Flight Recording beside ours (docs/jfr.md); a bare jfrsync is jfrsync=default (options.c).
     * Sampling windows between native calls (docs/options.md). jprof takes each as --NAME. */
    {.name = "jfrsync", .kind = OPTION_TEXT, .field = FIELD(jfrsync), .cap = TEXT_CAP(jfrsync)},
    {.name = "jfropts", .kind = OPTION_TEXT, .field = FIELD(jfropts), .cap = TEXT_CAP(jfropts)},
    {.name = "proc", .kind = OPTION_DURATION, .field = FIELD(proc_s), .jprof = "--proc", .jprof_arg = "INTERVAL",
     .jprof_help = "sample the machine's processes (CPU, memory, I/O) into the JFR recording every" MORE
                   "INTERVAL (default 30s; needs -f FILE.jfr)",
     .probe = "30", .max = INT_MAX * SECOND, .unit = SECOND, .seconds = true, .dflt = OPTIONS_DEFAULT_PROC_S},
    {.name = "ratelimit", .kind = OPTION_TEXT, .field = FIELD(ratelimit), .cap = TEXT_CAP(ratelimit),
     .jprof = "--ratelimit", .jprof_arg = "LIMITS",
     .jprof_help = "at most N events a second per category, CATEGORY:N,... (cpu wall alloc lock" MORE
                   "nativemem nativelock trace span)"},
    {.name = "clock", .kind = OPTION_CHOICE, .field = FIELD(clock), .choices = clock_choices},
    {.name = "metricsformat", .kind = OPTION_CHOICE, .field = FIELD(metrics_format), .choices = metrics_format_choices},
    {.name = "begin", .kind = OPTION_TEXT, .field = FIELD(begin), .cap = TEXT_CAP(begin)},
    {.name = "end", .kind = OPTION_TEXT, .field = FIELD(end), .cap = TEXT_CAP(end)},
    {.name = "ttsp", .kind = OPTION_FLAG, .field = FIELD(ttsp)},
    {.name = "nostop", .kind = OPTION_FLAG, .field = FIELD(nostop)},
    {.name = "otlp", .kind = OPTION_FLAG, .format = FORMAT_OTLP},
    {.name = "heatmap", .kind = OPTION_FLAG, .format = FORMAT_HEATMAP},
    {.name = "chunksize", .kind = OPTION_SIZE, .field = FIELD(chunk_size), .min = OPTIONS_MIN_CHUNK_SIZE},
    {.name = "chunktime", .kind = OPTION_DURATION, .field = FIELD(chunk_time_ns), .min = OPTIONS_MIN_CHUNK_TIME_NS,
     .unit = SECOND},
    {.kind = OPTION_TEXT, .jprof = "--libpath", .jprof_arg = "PATH",
     .jprof_help = "the agent library to load (default: ../lib/libprof.so next to jprof);" MORE
     "must be visible at the same path inside the JVM", .own = OPTION_OWN_LIBPATH},
    {.kind = OPTION_DURATION, .jprof = "--attach-timeout", .jprof_arg = "S",
     .jprof_help = "seconds to wait for the JVM's attach listener (default 10)", .own = OPTION_OWN_ATTACH_TIMEOUT},
    /* Java frames split by source line in collapsed, HTML and text output (the viewer formats
     * carry lines in their own fields whether or not it is given) */
    {.name = "lines", .kind = OPTION_FLAG, .field = FIELD(lines)},
};
const size_t options_table_count = sizeof(options_table) / sizeof(options_table[0]);

static bool same(const char *a, const char *b) {
    return a && b && strcmp(a, b) == 0;
}

const options_spec *options_table_find(const char *name) {
    for (size_t i = 0; i < options_table_count; i++) {
        if (same(options_table[i].name, name)) return &options_table[i];
    }
    return NULL;
}

const options_spec *options_table_jprof(const char *flag) {
    for (size_t i = 0; i < options_table_count; i++) {
        if (same(options_table[i].jprof, flag)) return &options_table[i];
    }
    return NULL;
}

const options_spec *options_table_jfrconv(const char *flag) {
    for (size_t i = 0; i < options_table_count; i++) {
        if (same(options_table[i].jfrconv, flag) || same(options_table[i].jfrconv_long, flag))
            return &options_table[i];
    }
    return NULL;
}

bool options_table_takes_value(const options_spec *s) {
    /* A count with a default ("traces") may come bare; the tools have no such flag. */
    return s->kind == OPTION_COUNT ? !s->dflt : s->kind != OPTION_ACTION && s->kind != OPTION_FLAG;
}

/* A row's help for a tool: its text, and for a choice its values from the table. */
static void help_text(const options_spec *s, const char *text, char *buf, size_t len) {
    char choices[256] = "";
    if (s->choices) options_table_choices(s, choices, sizeof(choices));
    snprintf(buf, len, "%s%s%s", text ? text : "", s->choices ? ": " : "", choices);
}

void options_table_print_help(FILE *out, options_tool tool, const char *(*note)(const options_spec *s)) {
    for (size_t i = 0; i < options_table_count; i++) {
        const options_spec *s = &options_table[i];
        bool jprof = tool == OPTIONS_JPROF;
        const char *flag = jprof ? s->jprof : s->jfrconv_long;
        if (!flag) continue;
        const char *arg = jprof ? s->jprof_arg : s->jfrconv_arg;
        char flags[64], help[512];
        /* jfrconv's lines give the short spelling first, long ones aligned after it: "-t, --threads". */
        const char *first = jprof ? "" : s->jfrconv ? s->jfrconv : "  ";
        const char *then = jprof ? "" : s->jfrconv ? ", " : "  ";
        snprintf(flags, sizeof(flags), "%s%s%s%s%s", first, then, flag, arg ? " " : "", arg ? arg : "");
        help_text(s, jprof ? s->jprof_help : s->jfrconv_help, help, sizeof(help));
        /* The width: each tool's help texts continue their lines under this column (MORE, JMORE). */
        fprintf(out, "  %-*s %s%s\n", jprof ? 18 : 20, flags, help, note ? note(s) : "");
    }
}

void options_table_choices(const options_spec *s, char *buf, size_t len) {
    size_t used = 0;
    buf[0] = 0;
    for (const options_choice *c = s->choices; c && c->name && used < len; c++) {
        used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "", c->name);
        if (c->alias && used < len) used += (size_t)snprintf(buf + used, len - used, " (or %s)", c->alias);
    }
}

void options_table_accepted(char *buf, size_t len) {
    size_t used = 0;
    buf[0] = 0;
    for (size_t i = 0; i < options_table_count && used < len; i++) {
        const options_spec *s = &options_table[i];
        if (!s->name) continue;
        const char *suffix = s->extra_event ? "[=" : options_table_takes_value(s) ? "=" : s->kind == OPTION_COUNT ? "[=N]" : "";
        /* An extra event's value is optional: "wall[=INTERVAL]". */
        used += (size_t)snprintf(buf + used, len - used, "%s%s%s%s", used ? " " : "", s->name, suffix,
                                 s->extra_event ? (s->kind == OPTION_SIZE ? "SIZE]" : "INTERVAL]") : "");
    }
}
