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
    {"cpuprofile", FORMAT_CPUPROFILE, NULL}, {"gecko", FORMAT_GECKO, NULL},            {NULL, 0, NULL},
};

/* Bits of prof_options.features, joined by '+' in async-profiler's spelling (features=agct). */
static const options_choice feature_choices[] = {
    {"agct", PROF_FEATURE_AGCT, NULL},
    {"sigtrap", PROF_FEATURE_SIGTRAP, NULL},
    {"nosigtrap", PROF_FEATURE_NOSIGTRAP, NULL},
    {NULL, 0, NULL},
};

/* A row gives the columns up to 'own' in order, then by name only the limits its kind uses; the rest are 0. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
const options_spec options_table[] = {
    {NULL, OPTION_DURATION, 0, 0, "-d", "N",
     "profile for N seconds (start, wait, stop); the default action, for 60 s when -d is" MORE
     "not given; a countdown on stderr when it is a terminal; Ctrl-C," MORE
     "SIGTERM or SIGHUP stop early and still write the profile; the agent" MORE
     "stops by itself N+5 s after the start should jprof be killed", NULL, NULL, NULL, NULL, NULL, NULL, OPTION_OWN_DURATION},
    {"start", OPTION_ACTION, 0, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, OPTION_OWN_NONE},
    {"resume", OPTION_ACTION, 0, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, OPTION_OWN_NONE},
    {"stop", OPTION_ACTION, 0, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, OPTION_OWN_NONE},
    {"dump", OPTION_ACTION, 0, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, OPTION_OWN_NONE},
    {"status", OPTION_ACTION, 0, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, OPTION_OWN_NONE},
    {"version", OPTION_ACTION, 0, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, OPTION_OWN_NONE},
    /* The metrics action and continuous profiling (loop=). */
    {"metrics", OPTION_ACTION, 0, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, OPTION_OWN_NONE},
    {"loop", OPTION_DURATION, FIELD(loop_ns), 0, "--loop", "TIME",
     "continuous profiling: a new profile file every TIME until stopped (30s, 1h);" MORE
     "name them apart with %t, %n (sequence) or %n{MAX} (rolling); or at each time of day TIME" MORE
     "(*:00 every hour, 00:00 every midnight)", "10", NULL, NULL, NULL, NULL, NULL,
     OPTION_OWN_NONE, .min = SECOND, .unit = SECOND, .clock_field = FIELD(loop_clock)},
    {"event", OPTION_EVENT, FIELD(event), 0, "-e", "EVENT",
     "sampling event: cpu (default), ctimer, itimer, wall, alloc, lock (see 'jprof" MORE
     "list'), or Java methods to instrument: pkg.Class.method, pkg.Class.*;" MORE
     "-e cpu,wall records both (a .jfr holds every event, other formats the first)", "cpu", NULL, NULL, NULL, NULL, NULL,
     OPTION_OWN_NONE, .cap = TEXT_CAP(event)},
    /* An event kind beside event=: alone (event=cpu,wall) or with its interval (wall=20ms); jprof's --wall
     * always with one. The row's kind parses the value into extra_intervals[kind]. */
    {"wall", OPTION_DURATION, FIELD(extra_intervals[EVENT_WALL]), 0, "--wall", "INTERVAL",
     "wall-clock profiling beside -e (e.g. -e cpu --wall 50ms -f both.jfr)", "50ms", NULL, NULL, NULL, NULL, NULL,
     OPTION_OWN_NONE, .min = 1, .unit = 1, .extra_event = EVENT_WALL},
    /* alloc and lock: event kinds beside event= like wall; their values go to their own fields (defaults set
     * by options_init: 512k, 10us). Without event=, the first of them given is the session's event. */
    {"alloc", OPTION_SIZE, FIELD(alloc_bytes), 0, "--alloc", "BYTES",
     "allocation profiling: a sample every BYTES allocated on average (default" MORE
     "512k), through the JVM's own sampling (JDK 11+)", "512k", NULL, NULL, NULL, NULL, NULL, OPTION_OWN_NONE,
     .min = 1, .max = 0x7fffffffULL, .extra_event = EVENT_ALLOC},
    {NULL, OPTION_FLAG, 0, 0, NULL, NULL, NULL, NULL, NULL, "--alloc", NULL,
     "allocation samples (jdk.ObjectAllocationSample; the TLAB events where a" JMORE
     "chunk has none), weighted by bytes", NULL, OPTION_OWN_NONE, .jfrconv_sets = JFRCONV_SETS_ALLOC_ONLY},
    {"live", OPTION_FLAG, FIELD(live), 0, "--live", NULL,
     "alloc: only objects still reachable when the profile is written", "", NULL, "--live", NULL,
     "objects alive at the recording's end (profiler.LiveObject of alloc,live;" JMORE
     "jdk.OldObjectSample), by size", NULL, OPTION_OWN_NONE},
    {"lock", OPTION_DURATION, FIELD(lock_ns), 0, "--lock", "DURATION",
     "lock profiling: contended waits (monitors, locks' parks), a sample each" MORE
     "DURATION of accumulated waiting (default 10us; 0: every wait)", "10us", NULL, NULL, NULL, NULL, NULL, OPTION_OWN_NONE,
     .unit = 1, .extra_event = EVENT_LOCK},
    {NULL, OPTION_FLAG, 0, 0, NULL, NULL, NULL, NULL, NULL, "--lock", NULL,
     "lock samples (jdk.JavaMonitorEnter, jdk.ThreadPark), weighted by ns waited", NULL, OPTION_OWN_NONE,
     .jfrconv_sets = JFRCONV_SETS_LOCK_ONLY},
    {"interval", OPTION_DURATION, FIELD(interval_ns), 0, "-i", "INTERVAL",
     "sampling interval: 10ms, 500us, 1s, or a bare number of nanoseconds;" MORE
     "with -e pkg.Class.method: record every Nth call", "10ms", NULL, NULL, NULL, NULL, NULL, OPTION_OWN_NONE,
     .min = 1, .unit = 1, .unit_field = FIELD(interval_has_unit)},
    {"file", OPTION_FILE, FIELD(file), 0, "-f", "FILE",
     "write the profile to FILE (in the JVM's file system, written by the JVM's" MORE
     "user; %p = pid, %t = timestamp, %n = loop period, %n{MAX} = period modulo" MORE
     "MAX, %{NAME} = environment variable); without -f it goes to stdout", "x", NULL, NULL, NULL, NULL, NULL, OPTION_OWN_FILE,
     .cap = TEXT_CAP(file)},
    {NULL, OPTION_TEXT, 0, 0, "-o", "FORMAT",
     "output format, passed to the agent: collapsed, flamegraph, tree, text, jfr," MORE
     "pprof, speedscope, cpuprofile, gecko, traces[=N], flat[=N];" MORE
     "default: from the -f extension, else text", NULL, NULL, NULL, NULL, NULL, NULL, OPTION_OWN_FORMAT},
    /* jfrconv's formats: every one it can write, by the name -o takes (the agent's flag rows below). */
    {NULL, OPTION_CHOICE, FIELD(format), 0, NULL, NULL, NULL, NULL, "-o", "--output", "FORMAT",
     "output format (default: from the output's extension, else text)" JMORE "accepted", format_choices, OPTION_OWN_NONE},
    {"collapsed", OPTION_FLAG, 0, FORMAT_COLLAPSED, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, OPTION_OWN_NONE},
    {"text", OPTION_FLAG, 0, FORMAT_TEXT, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, OPTION_OWN_NONE},
    {"traces", OPTION_COUNT, FIELD(traces), FORMAT_TEXT, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, OPTION_OWN_NONE,
     .min = 1, .max = 1000000, .dflt = OPTIONS_DEFAULT_TOP},
    {"flat", OPTION_COUNT, FIELD(flat), FORMAT_TEXT, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, OPTION_OWN_NONE,
     .min = 1, .max = 1000000, .dflt = OPTIONS_DEFAULT_TOP},
    {"threads", OPTION_FLAG, FIELD(threads), 0, "-t", NULL, "profile threads separately", "", "-t", "--threads", NULL,
     "a root frame per thread: [name tid=N]", NULL, OPTION_OWN_NONE},
    {"state", OPTION_STATES, FIELD(state_mask), 0, NULL, NULL, NULL, NULL, "-s", "--state", "LIST",
     "only samples in these thread states, e.g. RUNNABLE,SLEEPING (any case," JMORE
     "STATE_ optional, a prefix is enough: -s r)", NULL, OPTION_OWN_NONE, .jfrconv_sets = JFRCONV_SETS_STATES},
    {"filter", OPTION_TIDS, FIELD(tid_ranges), 0, "--filter", "TIDS",
     "sample only these thread ids, e.g. 120-127;132 (';' between); bare" MORE "(agent option): the threads the Java API adds", "1", NULL, NULL, NULL, NULL, NULL,
     OPTION_OWN_NONE, .max = OPTIONS_MAX_TID_RANGES, .count_field = FIELD(tid_range_count)},
    {"states", OPTION_FLAG, FIELD(states), 0, NULL, NULL, NULL, NULL, NULL, "--states", NULL,
     "a frame per thread state under the thread: [STATE_SLEEPING]", NULL, OPTION_OWN_NONE},
    {"jstackdepth", OPTION_COUNT, FIELD(jstackdepth), 0, "-j", "N", "maximum stack depth, all frames (default 2048)", "64", NULL,
     NULL, NULL, NULL, NULL, OPTION_OWN_NONE, .min = 1, .max = OPTIONS_MAX_JSTACKDEPTH},
    {"include", OPTION_PATTERN, FIELD(include), 0, "-I", "PATTERN",
     "keep only stacks with a frame matching PATTERN (repeatable; * at ends)", "a", "-I", "--include", "PAT",
     "only stacks with a frame matching PAT (repeatable)", NULL, OPTION_OWN_NONE, .cap = TEXT_CAP(include[0]),
     .count_field = FIELD(include_count), .jfrconv_sets = JFRCONV_SETS_INCLUDE},
    {"exclude", OPTION_PATTERN, FIELD(exclude), 0, "-X", "PATTERN", "drop stacks with a frame matching PATTERN (repeatable)", "a",
     "-X", "--exclude", "PAT",
     "drop stacks with a frame matching PAT (repeatable)" JMORE
     "PAT: the agent's pattern ('*' at either end: '*HashMap*') or a regular" JMORE
     "expression matching a whole frame name ('java/util/.*\\.get')", NULL, OPTION_OWN_NONE,
     .cap = TEXT_CAP(exclude[0]), .count_field = FIELD(exclude_count), .jfrconv_sets = JFRCONV_SETS_EXCLUDE},
    {NULL, OPTION_TIME, 0, 0, NULL, NULL, NULL, NULL, NULL, "--from", "TIME",
     "only samples at or after TIME", NULL, OPTION_OWN_NONE, .jfrconv_sets = JFRCONV_SETS_FROM},
    {NULL, OPTION_TIME, 0, 0, NULL, NULL, NULL, NULL, NULL, "--to", "TIME",
     "only samples at or before TIME" JMORE
     "TIME: from the recording's start: 10s, 500ms, 2m, 1500 (ms); from its end:" JMORE
     "-10s; absolute: epoch milliseconds (1700000000000), 2026-11-22T10:15:00[Z]," JMORE
     "10:15:00 (local time of day)", NULL, OPTION_OWN_NONE, .jfrconv_sets = JFRCONV_SETS_TO},
    {NULL, OPTION_FLAG, 0, 0, NULL, NULL, NULL, NULL, NULL, "--cpu", NULL,
     "CPU samples only: jdk.ExecutionSample in STATE_DEFAULT where the recording" JMORE
     "has wall samples too, every jdk.ExecutionSample otherwise (not" JMORE
     "jdk.NativeMethodSample)", NULL, OPTION_OWN_NONE, .jfrconv_sets = JFRCONV_SETS_CPU_ONLY},
    {NULL, OPTION_FLAG, 0, 0, NULL, NULL, NULL, NULL, NULL, "--wall", NULL,
     "wall-clock samples only: jdk.ExecutionSample in any state but" JMORE
     "STATE_DEFAULT, async-profiler's profiler.WallClockSample", NULL, OPTION_OWN_NONE,
     .jfrconv_sets = JFRCONV_SETS_WALL_ONLY},
    /* jfrconv only: frame naming by line, bci and normalised names, highlight, diff, classify, skip, grain. */
    {NULL, OPTION_FLAG, 0, 0, NULL, NULL, NULL, NULL, NULL, "--lines", NULL,
     "Java frames split by source line: class.method:LINE", NULL, OPTION_OWN_NONE,
     .jfrconv_sets = JFRCONV_SETS_LINES},
    {NULL, OPTION_FLAG, 0, 0, NULL, NULL, NULL, NULL, NULL, "--bci", NULL,
     "Java frames split by bytecode index: class.method@BCI", NULL, OPTION_OWN_NONE,
     .jfrconv_sets = JFRCONV_SETS_BCI},
    {NULL, OPTION_FLAG, 0, 0, NULL, NULL, NULL, NULL, NULL, "--norm", NULL,
     "lambda and hidden class names without generated numbers and" JMORE
     "addresses (Main$$Lambda$14/0x0000000800c03000 -> Main$$Lambda)", NULL, OPTION_OWN_NONE,
     .jfrconv_sets = JFRCONV_SETS_NORM},
    {NULL, OPTION_REGEX, FIELD(highlight), 0, NULL, NULL, NULL, NULL, NULL, "--highlight", "REGEX",
     "flame graph: open with the frames matching REGEX highlighted (searched)", NULL, OPTION_OWN_NONE,
     .cap = TEXT_CAP(highlight)},
    {NULL, OPTION_FLAG, 0, 0, NULL, NULL, NULL, NULL, NULL, "--diff", NULL,
     "compare two profiles: jfrconv --diff BASE NEW OUTPUT (each a .jfr or" JMORE
     "collapsed stacks); OUTPUT .html: a flame graph coloured by change," JMORE
     "else text; values per second of recording, or shares", NULL, OPTION_OWN_NONE,
     .jfrconv_sets = JFRCONV_SETS_DIFF},
    /* jfrconv's shaping of the profile (profile_reshape.h): async-profiler's jfrconv flags; its agent has none */
    {NULL, OPTION_FLAG, FIELD(classify), 0, NULL, NULL, NULL, NULL, NULL, "--classify", NULL,
     "a category frame under the thread frame: [gc], [jit], [vm], [class_load]," JMORE
     "[class_init], [class_resolve], [class_verify], [lambda_init], [Interpreter]," JMORE
     "[c1_comp], [c2_comp], [java], [native], [kernel] (docs/jfrconv.md: the rules)", NULL, OPTION_OWN_NONE},
    {NULL, OPTION_COUNT, FIELD(skip), 0, NULL, NULL, NULL, NULL, NULL, "--skip", "N",
     "leave out the N bottom (root-side) frames of every stack, thread and" JMORE
     "category frames included", NULL, OPTION_OWN_NONE, .min = 0, .max = OPTIONS_MAX_JSTACKDEPTH},
    {NULL, OPTION_NUMBER, FIELD(grain), 0, NULL, NULL, NULL, NULL, NULL, "--grain", "X",
     "coarsen: each stack's count rounded to a multiple of X samples (the" JMORE
     "remainder carried on), stacks that round to none left out", NULL, OPTION_OWN_NONE, .min = 1},
    /* jfrconv's native event selections. */
    {NULL, OPTION_FLAG, 0, 0, NULL, NULL, NULL, NULL, NULL, "--nativemem", NULL,
     "native memory: profiler.Malloc events (weight: bytes) instead of CPU samples", NULL, OPTION_OWN_NONE,
     .jfrconv_sets = JFRCONV_SETS_NATIVEMEM},
    {NULL, OPTION_FLAG, 0, 0, NULL, NULL, NULL, NULL, NULL, "--nativelock", NULL,
     "native locks: profiler.NativeLock events (weight: ns waited)", NULL, OPTION_OWN_NONE,
     .jfrconv_sets = JFRCONV_SETS_NATIVELOCK},
    {"simple", OPTION_FLAG, FIELD(simple), 0, "-s", NULL, "simple class names instead of fully qualified ones", "",
     NULL, "--simple", NULL,
     "class names without their package", NULL, OPTION_OWN_NONE},
    {"dot", OPTION_FLAG, FIELD(dot), 0, NULL, NULL, NULL, NULL, NULL, "--dot", NULL,
     "java.util.HashMap.get instead of java/util/HashMap.get", NULL, OPTION_OWN_NONE},
    {"sig", OPTION_FLAG, FIELD(sig), 0, "-g", NULL, "print method signatures", "", NULL, "--sig", NULL,
     "append method descriptors", NULL, OPTION_OWN_NONE},
    {"ann", OPTION_FLAG, FIELD(ann), 0, "-a", NULL, "annotate Java frames (_[j] _[i] ...)", "", NULL, "--ann", NULL,
     "annotate frames: _[j] JIT compiled, _[i] inlined, _[0] interpreted, _[k] kernel", NULL, OPTION_OWN_NONE},
    {"lib", OPTION_FLAG, FIELD(lib), 0, "-l", NULL, "prepend the library name to native frames", "", NULL,
     NULL, NULL, NULL, NULL, OPTION_OWN_NONE},
    {"title", OPTION_TEXT, FIELD(title), 0, "--title", "TEXT", "title of the flame graph / report", "x", NULL, "--title", "TITLE",
     "title of the flame graph or report", NULL, OPTION_OWN_NONE, .cap = TEXT_CAP(title)},
    {"samples", OPTION_FLAG, FIELD(total), 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, OPTION_OWN_NONE,
     .off = true},
    {"flamegraph", OPTION_FLAG, 0, FORMAT_FLAMEGRAPH, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, OPTION_OWN_NONE},
    {"html", OPTION_FLAG, 0, FORMAT_FLAMEGRAPH, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, OPTION_OWN_NONE},
    {"tree", OPTION_FLAG, 0, FORMAT_TREE, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, OPTION_OWN_NONE},
    {"minwidth", OPTION_PERCENT, FIELD(minwidth), 0, "--minwidth", "PCT", "skip flame graph frames narrower than PCT percent", "1",
     NULL, "--minwidth", "P",
     "flame graph: leave out frames narrower than P percent", NULL, OPTION_OWN_NONE},
    {"reverse", OPTION_FLAG, FIELD(reverse), 0, "--reverse", NULL, "reverse stacks (flame graph of callers)", "", "-r",
     "--reverse", NULL,
     "flame graph: open with stacks merged from the leaf; other formats: stacks" JMORE
     "written leaf first", NULL, OPTION_OWN_NONE},
    {"inverted", OPTION_FLAG, FIELD(inverted), 0, "--inverted", NULL, "icicle graph: stacks grow downwards", "", NULL,
     "--inverted", NULL,
     "flame graph: open as an icicle", NULL, OPTION_OWN_NONE},
    /* nativemem and nativelock take their value after the flag in jprof (asprof's --nativemem N);
     * the agent also accepts them bare (their fields keep options_init's: every call, 10us). Event kinds
     * beside event=, or the session's first event without it (options.c settle_native_events). */
    {"nativemem", OPTION_SIZE, FIELD(nativemem), 0, "--nativemem", "BYTES",
     "native memory: sample malloc, calloc, realloc, posix_memalign, aligned_alloc" MORE
     "every BYTES allocated (k, m, g; 0: every call), with their stacks", "0", NULL, NULL, NULL,
     NULL, NULL, OPTION_OWN_NONE, .extra_event = EVENT_NATIVEMEM},
    {"nofree", OPTION_FLAG, FIELD(nofree), 0, "--nofree", NULL, "nativemem: do not hook free (allocations only)", "",
     NULL, NULL, NULL, NULL, NULL, OPTION_OWN_NONE},
    {"leak", OPTION_FLAG, FIELD(leak), 0, "--leak", NULL,
     "nativemem: show only allocations not freed when the profile is written", "", NULL, "--leak", NULL,
     "with --nativemem: only allocations without a later profiler.Free of their address", NULL, OPTION_OWN_NONE},
    {"nativelock", OPTION_DURATION, FIELD(nativelock), 0, "--nativelock", "TIME",
     "native locks: contended pthread mutexes and rwlocks, a sample every TIME" MORE
     "waited (10us without a value), weighted by the time waited", "10us", NULL, NULL, NULL,
     NULL, NULL, OPTION_OWN_NONE, .unit = 1, .extra_event = EVENT_NATIVELOCK},
    {"total", OPTION_FLAG, FIELD(total), 0, "--total", NULL, "count total time instead of samples", "", NULL,
     "--total", NULL,
     "count the events' weight (where they have one) instead of samples", NULL, OPTION_OWN_NONE},
    {"alluser", OPTION_FLAG, FIELD(alluser), 0, "--all-user", NULL, "only user-mode events", "", NULL, NULL, NULL, NULL, NULL, OPTION_OWN_NONE},
    {"cstack", OPTION_CHOICE, FIELD(cstack), 0, "--cstack", "MODE", "how to walk stacks (default: the best the JVM allows)",
     "dwarf", NULL, NULL, NULL, NULL, cstack_choices, OPTION_OWN_NONE},
    {"features", OPTION_CHOICE_SET, FIELD(features), 0, "--features", "LIST",
     "sampling features, several joined by '+' (agct: cstack=vm takes Java" MORE
     "frames from AsyncGetCallTrace instead of naming them itself; sigtrap:" MORE
     "perf events signal with SIGTRAP, warned where it cannot be (opt-in: a foreign SIGTRAP handler" MORE
     "may receive them); nosigtrap: never, the default)", "agct", NULL, NULL, NULL, NULL,
     feature_choices, OPTION_OWN_NONE},
    {"timeout", OPTION_DURATION, FIELD(timeout_s), 0, "--timeout", "DURATION",
     "stop the profiler by itself after DURATION (start), or at a time of day (23:00)",
     "10", NULL, NULL, NULL, NULL, NULL, OPTION_OWN_NONE, .min = SECOND, .max = INT_MAX * SECOND, .unit = SECOND,
     .seconds = true, .clock_field = FIELD(timeout_clock)},
    {"log", OPTION_TEXT, FIELD(log_file), 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, OPTION_OWN_NONE,
     .cap = TEXT_CAP(log_file)},
    {"loglevel", OPTION_CHOICE, FIELD(log_level), 0, "-L", "LEVEL", "agent log level",
     "info", NULL, NULL, NULL, NULL, loglevel_choices, OPTION_OWN_NONE},
    {"quiet", OPTION_FLAG, FIELD(quiet), 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, OPTION_OWN_NONE},
    {"jfr", OPTION_FLAG, 0, FORMAT_JFR, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, OPTION_OWN_NONE},
    {"pprof", OPTION_FLAG, 0, FORMAT_PPROF, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, OPTION_OWN_NONE},
    {"speedscope", OPTION_FLAG, 0, FORMAT_SPEEDSCOPE, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, OPTION_OWN_NONE},
    {"cpuprofile", OPTION_FLAG, 0, FORMAT_CPUPROFILE, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, OPTION_OWN_NONE},
    {"gecko", OPTION_FLAG, 0, FORMAT_GECKO, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, OPTION_OWN_NONE},
    {"chunksize", OPTION_SIZE, FIELD(chunk_size), 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, OPTION_OWN_NONE,
     .min = OPTIONS_MIN_CHUNK_SIZE},
    {"chunktime", OPTION_DURATION, FIELD(chunk_time_ns), 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, OPTION_OWN_NONE,
     .min = OPTIONS_MIN_CHUNK_TIME_NS, .unit = SECOND},
    {NULL, OPTION_TEXT, 0, 0, "--libpath", "PATH",
     "the agent library to load (default: ../lib/libprof.so next to jprof);" MORE
     "must be visible at the same path inside the JVM", NULL, NULL, NULL, NULL, NULL, NULL, OPTION_OWN_LIBPATH},
    {NULL, OPTION_DURATION, 0, 0, "--attach-timeout", "S", "seconds to wait for the JVM's attach listener (default 10)",
     NULL, NULL, NULL, NULL, NULL, NULL, OPTION_OWN_ATTACH_TIMEOUT},
    /* Java frames split by source line in collapsed, HTML and text output (the viewer formats
     * carry lines in their own fields whether or not it is given) */
    {"lines", OPTION_FLAG, FIELD(lines), 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, OPTION_OWN_NONE},
};
#pragma GCC diagnostic pop
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
