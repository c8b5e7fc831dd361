/* Unit tests of the option grammar: every option, and every error names the bad value. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "options.h"
#include "perf_events.h"
#include "thread_state.h"

static prof_options o;
static char err[OPTIONS_ERROR_MAX];

static void parses(const char *text) {
    err[0] = 0;
    int rc = options_parse(text, &o, err, sizeof(err));
    if (rc) fail_msg("'%s' refused: %s", text ? text : "(null)", err);
}

static void refused(const char *text, const char *must_mention) {
    err[0] = 0;
    assert_int_equal(options_parse(text, &o, err, sizeof(err)), -1);
    if (!strstr(err, must_mention)) fail_msg("error for '%s' does not name '%s': %s", text, must_mention, err);
}

static void test_defaults(void **state) {
    (void)state;
    parses(NULL);
    assert_int_equal(o.action, ACTION_NONE);
    assert_string_equal(o.event, "cpu");
    assert_int_equal(o.interval_ns, 0);
    assert_int_equal(o.jstackdepth, 2048);
    assert_int_equal(o.format, FORMAT_AUTO);
    assert_false(o.total);
    parses("");
    assert_int_equal(o.action, ACTION_NONE);
}

static void test_actions(void **state) {
    (void)state;
    const char *names[] = {"start", "resume", "stop", "dump", "status", "version"};
    prof_action actions[] = {ACTION_START, ACTION_RESUME, ACTION_STOP, ACTION_DUMP, ACTION_STATUS, ACTION_VERSION};
    for (int i = 0; i < 6; i++) {
        parses(names[i]);
        assert_int_equal(o.action, actions[i]);
        assert_string_equal(options_action_name(actions[i]), names[i]);
    }
    refused("start,stop", "conflict");
    refused("start=1", "start");
}

static void test_full_line(void **state) {
    (void)state;
    parses("start,event=itimer,interval=1ms,file=/tmp/p-%p.collapsed,threads,jstackdepth=64,include=*Foo*,"
           "include=java/*,exclude=*Bar,simple,dot,sig,ann,title=My profile,total,timeout=30,log=/tmp/l.log,"
           "loglevel=warn,quiet");
    assert_int_equal(o.action, ACTION_START);
    assert_string_equal(o.event, "itimer");
    assert_int_equal(o.interval_ns, 1000000);
    assert_string_equal(o.file, "/tmp/p-%p.collapsed");
    assert_true(o.threads);
    assert_int_equal(o.jstackdepth, 64);
    assert_int_equal(o.include_count, 2);
    assert_string_equal(o.include[0], "*Foo*");
    assert_string_equal(o.include[1], "java/*");
    assert_int_equal(o.exclude_count, 1);
    assert_string_equal(o.exclude[0], "*Bar");
    assert_true(o.simple && o.dot && o.sig && o.ann && o.total && o.quiet);
    assert_string_equal(o.title, "My profile");
    assert_int_equal(o.timeout_s, 30);
    assert_string_equal(o.log_file, "/tmp/l.log");
    assert_int_equal(o.log_level, LOG_WARN);
    assert_int_equal(options_effective_format(&o), FORMAT_COLLAPSED);
}

static void test_events(void **state) {
    (void)state;
    parses("event=cpu");
    assert_string_equal(o.event, "cpu");
    parses("event=ctimer");
    assert_string_equal(o.event, "ctimer");
    refused("event=foo", "foo");
    refused("event=foo", "cpu, ctimer, itimer");
    refused("event=", "event");
}

/* Several events: event=cpu,wall (wall arrives as its own option), wall=INTERVAL, the thread id
 * filter, the state filter and split. */
static void test_wall_and_several_events(void **state) {
    (void)state;
    parses("start,event=wall");
    assert_string_equal(o.event, "wall");
    assert_int_equal(options_event_kind(o.event), EVENT_WALL);
    assert_false(o.extra_events[EVENT_WALL]);
    parses("start,event=cpu,wall");
    assert_string_equal(o.event, "cpu");
    assert_int_equal(options_event_kind(o.event), EVENT_CPU);
    assert_true(o.extra_events[EVENT_WALL]);
    assert_int_equal(o.extra_intervals[EVENT_WALL], 0);
    parses("start,event=cpu,wall=20ms");
    assert_true(o.extra_events[EVENT_WALL]);
    assert_int_equal(o.extra_intervals[EVENT_WALL], 20000000);
    refused("wall=fast", "wall=fast");
    refused("wall=0", "at least 1ns");
    refused("wall=", "option 'wall='");
    refused("walls", "wall[=INTERVAL]");   /* the accepted list shows its value is optional */
    parses("start,wall=1s,event=cpu");
    assert_int_equal(o.extra_intervals[EVENT_WALL], 1000000000);
    parses("filter=120-127;132");
    assert_int_equal(o.tid_range_count, 2);
    assert_int_equal(o.tid_ranges[0][0], 120);
    assert_int_equal(o.tid_ranges[0][1], 127);
    assert_int_equal(o.tid_ranges[1][0], 132);
    assert_int_equal(o.tid_ranges[1][1], 132);
    refused("filter=12-3", "filter=12-3");
    refused("filter=a", "120-127;132");
    refused("filter=", "filter");
    parses("state=sleeping;PARKED;STATE_blocked");
    assert_int_equal(o.state_mask, (1u << THREAD_STATE_SLEEPING) | (1u << THREAD_STATE_PARKED) |
                                       (1u << THREAD_STATE_BLOCKED));
    parses("state=r");
    assert_int_equal(o.state_mask, 1u << THREAD_STATE_RUNNABLE);
    refused("state=dozing", "dozing");
    parses("threads,states");
    assert_true(o.states);
    parses("stop,event=wall");
    assert_true(o.event_given);
    parses("stop");
    assert_false(o.event_given);
}

/* A bare 'cpu' is async-profiler's event=cpu, beside which other events go as usual. */
static void test_cpu_token(void **state) {
    (void)state;
    parses("start,cpu,file=x.html");
    assert_string_equal(o.event, "cpu");
    assert_true(o.event_given);
    parses("start,cpu,alloc,nativemem,total,file=x.jfr");
    assert_string_equal(o.event, "cpu");
    assert_true(o.extra_events[EVENT_ALLOC] && o.extra_events[EVENT_NATIVEMEM]);
    parses("start,nativemem,cpu");
    assert_string_equal(o.event, "cpu");
    assert_true(o.extra_events[EVENT_NATIVEMEM]);
    refused("start,event=wall,cpu", "given twice");
    refused("start,cpu=10ms", "interval=10ms");
}

/* Native memory and locks: table rows of kind size / duration with .extra_event; alone they are
 * the session's first event, beside event= an extra one. */
static void test_native_events(void **state) {
    (void)state;
    parses("start,nativemem");
    assert_string_equal(o.event, "nativemem");
    assert_int_equal(options_event_kind(o.event), EVENT_NATIVEMEM);
    assert_false(o.extra_events[EVENT_NATIVEMEM]);
    assert_int_equal(o.nativemem, 0);   /* bare: every call */
    parses("start,nativemem=1m,leak");
    assert_int_equal(o.nativemem, 1 << 20);
    assert_true(o.leak);
    parses("start,event=cpu,nativemem=0,nofree");
    assert_string_equal(o.event, "cpu");
    assert_true(o.extra_events[EVENT_NATIVEMEM]);
    assert_true(o.nofree);
    parses("start,event=nativelock");
    assert_int_equal(options_event_kind(o.event), EVENT_NATIVELOCK);
    assert_int_equal(o.nativelock, OPTIONS_DEFAULT_NATIVELOCK_NS);
    parses("start,nativelock=0");
    assert_string_equal(o.event, "nativelock");
    assert_int_equal(o.nativelock, 0);
    parses("start,event=wall,nativelock=2ms,nativemem");
    assert_string_equal(o.event, "wall");
    assert_true(o.extra_events[EVENT_NATIVELOCK] && o.extra_events[EVENT_NATIVEMEM]);
    assert_int_equal(o.nativelock, 2000000);
    refused("nativemem=1x", "option 'nativemem=1x': expected a size in bytes of at least 0,");
    refused("nativelock=soon", "nativelock=soon");
    refused("nativemems", "nativemem[=SIZE]");
}

/* Stack walking modes: vm (the default when left out), async-profiler's vmx as its alias, the stitching ones. */
static void test_cstack(void **state) {
    (void)state;
    parses("");
    assert_int_equal(o.cstack, CSTACK_DEFAULT);
    parses("cstack=vm");
    assert_int_equal(o.cstack, CSTACK_VM);
    assert_string_equal(options_cstack_name(o.cstack), "vm");
    parses("cstack=vmx");
    assert_int_equal(o.cstack, CSTACK_VM);
    parses("cstack=dwarf");
    assert_int_equal(o.cstack, CSTACK_DWARF);
    parses("cstack=fp");
    assert_int_equal(o.cstack, CSTACK_FP);
    parses("cstack=no");
    assert_int_equal(o.cstack, CSTACK_NO);
    refused("cstack=lbr", "lbr");
    refused("cstack=lbr", "vm (or vmx), dwarf, fp, no");
}

/* perf software events by perf's names and short aliases; alluser is a flag. */
static void test_perf_events(void **state) {
    (void)state;
    parses("event=cpu-clock");
    assert_string_equal(o.event, "cpu-clock");
    parses("event=page-faults,interval=1000");
    assert_string_equal(o.event, "page-faults");
    assert_int_equal(o.interval_ns, 1000);
    parses("event=cs");
    assert_string_equal(o.event, "context-switches");
    parses("event=task-clock,alluser");
    assert_true(o.alluser);
    parses("event=cpu");
    assert_false(o.alluser);
    parses("event=cycles");
    parses("event=cache-misses");
    parses("event=branches");
    assert_string_equal(o.event, "branch-instructions");
    refused("event=cyclez", "cpu-clock");
    /* a native function (C++ Class::method): every call, by a breakpoint; found at start */
    parses("event=G1CollectedHeap::humongous_obj_allocate");
    assert_string_equal(o.event, "G1CollectedHeap::humongous_obj_allocate");
    refused("event=G1CollectedHeap::", "unknown event");
    refused("event=::f", "unknown event");
    refused("event=a::1b", "unknown event");
    char prefix[64];
    assert_int_equal(perf_events_mangled_prefix("G1CollectedHeap::humongous_obj_allocate", prefix, sizeof(prefix)), 0);
    assert_string_equal(prefix, "_ZN15G1CollectedHeap22humongous_obj_allocateE");
    assert_int_equal(perf_events_mangled_prefix("os::Linux::gettid", prefix, sizeof(prefix)), 0);
    assert_string_equal(prefix, "_ZN2os5Linux6gettidE");
    assert_int_equal(perf_events_mangled_prefix("os::Linux::gettid", prefix, 10), -1);
    assert_int_equal(perf_events_mangled_prefix("malloc", prefix, sizeof(prefix)), -1);
    refused("event=cpu-clocks", "cpu-clocks");
    refused("alluser=1", "alluser");
    /* target-cpu=N and record-cpu: a perf event's CPU (async-profiler's spellings) */
    parses("event=cpu");
    assert_int_equal(o.target_cpu, -1);
    assert_false(o.record_cpu);
    parses("event=cpu-clock,target-cpu=1,record-cpu");
    assert_int_equal(o.target_cpu, 1);
    assert_true(o.record_cpu);
    parses("target-cpu=0");
    assert_int_equal(o.target_cpu, 0);
    refused("target-cpu=-1", "-1");
    refused("target-cpu", "target-cpu");
    refused("record-cpu=1", "record-cpu");
}

static void test_intervals(void **state) {
    (void)state;
    struct { const char *text; uint64_t ns; } ok[] = {
        {"interval=1000", 1000}, {"interval=250ns", 250}, {"interval=500us", 500000},
        {"interval=10ms", 10000000}, {"interval=2s", 2000000000},
    };
    for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
        parses(ok[i].text);
        assert_int_equal(o.interval_ns, ok[i].ns);
    }
    refused("interval=0", "interval=0");
    refused("interval=10xs", "10xs");
    refused("interval=-5", "-5");
    refused("interval=", "interval");
    refused("interval=99999999999999999999", "99999999999999999999");
}

static void test_formats(void **state) {
    (void)state;
    parses("file=out.collapsed");
    assert_int_equal(options_effective_format(&o), FORMAT_COLLAPSED);
    parses("file=out.csv");
    assert_int_equal(options_effective_format(&o), FORMAT_COLLAPSED);
    parses("file=out.folded");
    assert_int_equal(options_effective_format(&o), FORMAT_COLLAPSED);
    parses("file=out.txt");
    assert_int_equal(options_effective_format(&o), FORMAT_TEXT);
    parses("file=out.txt,collapsed");
    assert_int_equal(options_effective_format(&o), FORMAT_COLLAPSED);
    parses("file=out.collapsed,text");
    assert_int_equal(options_effective_format(&o), FORMAT_TEXT);
    parses("traces=5");
    assert_int_equal(o.traces, 5);
    assert_int_equal(o.flat, 0);
    assert_int_equal(options_effective_format(&o), FORMAT_TEXT);
    parses("flat");
    assert_int_equal(o.flat, OPTIONS_DEFAULT_TOP);
    parses("traces,flat=3");
    assert_int_equal(o.traces, OPTIONS_DEFAULT_TOP);
    assert_int_equal(o.flat, 3);
    refused("traces=0", "traces=0");
    refused("flat=x", "flat=x");
    refused("collapsed=1", "collapsed");
    refused("file=", "file");
    refused("file=/tmp/out-%x.txt", "%x");
    parses("file=/tmp/out-%p-%t-%%.txt");
}

static void test_html_formats(void **state) {
    (void)state;
    parses("file=out.html");
    assert_int_equal(options_effective_format(&o), FORMAT_FLAMEGRAPH);
    assert_string_equal(options_format_name(options_effective_format(&o)), "flamegraph");
    parses("file=out.txt,flamegraph");
    assert_int_equal(options_effective_format(&o), FORMAT_FLAMEGRAPH);
    parses("html");
    assert_int_equal(options_effective_format(&o), FORMAT_FLAMEGRAPH);
    parses("file=out.html,tree");
    assert_int_equal(options_effective_format(&o), FORMAT_TREE);
    assert_string_equal(options_format_name(FORMAT_TREE), "tree");
    parses("file=out.html,collapsed");
    assert_int_equal(options_effective_format(&o), FORMAT_COLLAPSED);
    parses("file=x.html");
    assert_false(o.reverse);
    assert_false(o.inverted);
    assert_true(o.minwidth == 0.0);
    parses("file=x.html,minwidth=0.5,reverse,inverted,title=My app");
    assert_true(o.minwidth == 0.5);
    assert_true(o.reverse);
    assert_true(o.inverted);
    assert_string_equal(o.title, "My app");
    parses("minwidth=2");
    assert_true(o.minwidth == 2.0);
    parses("minwidth=.25");
    assert_true(o.minwidth == 0.25);
    parses("minwidth=100");
    refused("minwidth=abc", "minwidth=abc");
    refused("minwidth=-1", "minwidth=-1");
    refused("minwidth=101", "minwidth=101");
    refused("minwidth=0.5%", "minwidth=0.5%");
    refused("minwidth=1e1", "minwidth=1e1");
    refused("minwidth=0x10", "minwidth=0x10");
    refused("minwidth=.", "minwidth=.");
    refused("minwidth=1.2.3", "minwidth=1.2.3");
    refused("minwidth=", "minwidth");
    refused("minwidth", "minwidth");
    refused("reverse=1", "reverse");
    refused("tree=yes", "tree");
    refused("flamegraph=1", "flamegraph");
}

static void test_numbers_and_names(void **state) {
    (void)state;
    refused("jstackdepth=0", "jstackdepth=0");
    refused("jstackdepth=abc", "abc");
    refused("jstackdepth=70000", "70000");
    refused("jstackdepth=50/60", "50/60");
    refused("jstackdepth=50/", "50/");
    refused("jstackdepth=50/0", "50/0");
    parses("jstackdepth=50/20");
    assert_int_equal(o.jstackdepth, 50);
    assert_int_equal(o.jstackdepth_cut, 20);
    parses("jstackdepth=50");
    assert_int_equal(o.jstackdepth_cut, 0);
    parses("timeout=5s");
    assert_int_equal(o.timeout_s, 5);
    refused("timeout=0", "timeout=0");
    refused("timeout=soon", "soon");
    refused("loglevel=loud", "loud");
    parses("loglevel=none");
    assert_int_equal(o.log_level, LOG_NONE);
    parses("total,samples");
    assert_false(o.total);
    refused("threads=yes", "threads");
    parses("lib");
    assert_true(o.lib);
    refused("lib=1", "lib");
    refused("include=a*b", "a*b");
    refused("bogus", "bogus");
    refused("start,bogus=1", "bogus");
}

static void test_too_long_and_too_many(void **state) {
    (void)state;
    char text[2000] = "file=";
    memset(text + 5, 'x', 1500);
    text[1505] = 0;
    refused(text, "longer than");
    char many[4000] = "";
    for (int i = 0; i <= OPTIONS_MAX_FILTERS; i++) strcat(many, "include=a,");
    refused(many, "more than");
}

static void test_durations(void **state) {
    (void)state;
    uint64_t ns;
    assert_int_equal(options_parse_duration("3", 1000000000ULL, &ns), 0);
    assert_int_equal(ns, 3000000000ULL);
    assert_int_equal(options_parse_duration("ms", 1, &ns), -1);
    assert_int_equal(options_parse_duration("", 1, &ns), -1);
    assert_int_equal(options_parse_duration("20000000000s", 1, &ns), -1);
    /* async-profiler's units: a sampling interval's m is milliseconds, a long duration's minutes; any case;
     * days; k, g and b make a bare-nanosecond value a count (bytes). */
    assert_int_equal(options_parse_duration("1m", 1, &ns), 0);
    assert_int_equal(ns, 1000000ULL);
    assert_int_equal(options_parse_duration("2MS", 1, &ns), 0);
    assert_int_equal(ns, 2000000ULL);
    assert_int_equal(options_parse_duration("5m", 1000000000ULL, &ns), 0);
    assert_int_equal(ns, 300000000000ULL);
    assert_int_equal(options_parse_duration("1d", 1000000000ULL, &ns), 0);
    assert_int_equal(ns, 86400000000000ULL);
    assert_int_equal(options_parse_duration("512k", 1, &ns), 0);
    assert_int_equal(ns, 524288ULL);
    assert_int_equal(options_parse_duration("512k", 1000000000ULL, &ns), -1);
}

/* jfrsync (bare: the JDK's default settings), clock, and the sampling windows as async-profiler spells them. */
static void test_jfrsync_clock_windows(void **state) {
    (void)state;
    parses("start,jfrsync,file=x.jfr");
    assert_string_equal(o.jfrsync, "default");
    parses("start,jfrsync=/opt/my.jfc,clock=monotonic,file=x.jfr");
    assert_string_equal(o.jfrsync, "/opt/my.jfc");
    assert_int_equal(o.clock, PROF_CLOCK_MONOTONIC);
    parses("start,clock=tsc,jfropts=4,file=x.jfr");
    assert_int_equal(o.clock, PROF_CLOCK_TSC);
    assert_int_equal(options_jfr_flags(&o), JFR_OPTS_NO_NATIVE_LIBS);
    parses("start,jfropts=0x9,file=x.jfr");
    assert_int_equal(options_jfr_flags(&o), JFR_OPTS_NO_SYSTEM_INFO | JFR_OPTS_NO_CPU_LOAD);
    parses("start,jfropts=mem,file=x.jfr");
    assert_int_equal(options_jfr_flags(&o), JFR_OPTS_IN_MEMORY);
    refused("start,jfropts=fast,file=x.jfr", "jfropts=fast");
    refused("start,jfropts=9x,file=x.jfr", "jfropts=9x");
    refused("start,clock=hpet", "tsc");
    parses("start,begin=marker_begin,end=marker_end,nostop");
    assert_string_equal(o.begin, "marker_begin");
    assert_string_equal(o.end, "marker_end");
    assert_true(o.nostop && !o.ttsp);
    parses("start,ttsp");
    assert_true(o.ttsp);
    assert_string_equal(o.ignored, "");
}

/* async-profiler's options libprof does not have: ignored (noted) when they change only what or how it
 * samples, refused with what to write instead when the output would not be the one asked for. */
static void test_async_profiler_only_options(void **state) {
    (void)state;
    /* async-profiler's options libprof lacks are refused, saying why: accepted and not acted on, they would
     * mislead. */
    refused("start,signal=12,file=x.txt", "profiling signal itself");
    /* fdtransfer=NAME: the socket of jprof's helper (jprof --fdtransfer sends it) */
    refused("start,fdtransfer", "needs a value");
    parses("start,fdtransfer=libprof-fdtransfer-12-00ff");
    assert_string_equal(o.fdtransfer, "libprof-fdtransfer-12-00ff");
    parses("start,proc=1,file=x.jfr");
    assert_int_equal(options_proc_interval(&o), 1);
    parses("start,proc,file=x.jfr");
    assert_int_equal(options_proc_interval(&o), 30);
    parses("start,all,file=x.jfr");
    assert_int_equal(options_proc_interval(&o), 30);
    parses("start,all,file=x.html");
    assert_int_equal(options_proc_interval(&o), 0);
    parses("start,file=x.jfr");
    assert_int_equal(options_proc_interval(&o), 0);
    refused("start,proc=1,file=x.collapsed", "requires JFR output");
    parses("start,ratelimit=cpu:50;alloc:100;span:200,file=x.jfr");
    int64_t limits[OPTIONS_RATE_CATEGORIES];
    assert_int_equal(options_rate_limits(o.ratelimit, limits, err, sizeof(err)), 0);
    assert_int_equal(limits[EVENT_CPU], 50);
    assert_int_equal(limits[EVENT_ALLOC], 100);
    assert_int_equal(limits[OPTIONS_RATE_SPAN], 200);
    assert_int_equal(limits[EVENT_WALL], -1);
    refused("start,ratelimit=cpu", "bad pair 'cpu'");
    refused("start,ratelimit=gpu:5", "CATEGORY one of");
    refused("start,ratelimit=cpu:-1", "bad pair");
    /* all: every event not given, at its default, the session's event cpu (or event=); alloc= keeps its own. */
    parses("start,all,alloc=64k,file=x.jfr");
    assert_string_equal(o.event, "cpu");
    assert_true(o.extra_events[EVENT_WALL] && o.extra_events[EVENT_ALLOC] && o.extra_events[EVENT_LOCK] &&
                o.extra_events[EVENT_NATIVEMEM] && o.extra_events[EVENT_NATIVELOCK] && o.live);
    assert_int_equal(o.alloc_bytes, 64 * 1024);
    assert_int_equal(o.nativemem, 524287);
    parses("start,event=wall,all");
    assert_string_equal(o.event, "wall");
    assert_false(o.extra_events[EVENT_WALL]);
    assert_true(o.extra_events[EVENT_ALLOC]);
    /* all with an instrumented method as the session's event: the method's calls instead of CPU samples,
     * every other event beside them. */
    parses("start,all,event=java.util.HashMap.get,alloc=262143");
    assert_string_equal(o.event, "java.util.HashMap.get");
    assert_true(o.extra_events[EVENT_WALL] && o.extra_events[EVENT_ALLOC] && o.extra_events[EVENT_LOCK] && o.live);
    refused("start,event=java.util.HashMap.get,trace=a.B.c", "beside trace=");
    /* trace= is ours now: several targets, each kept as written; alone, the session's event. */
    parses("start,trace=my.pkg.Class.method:50ms,trace=my.pkg.Other.*,file=x.jfr");
    assert_int_equal(o.trace_count, 2);
    assert_string_equal(o.trace[1], "my.pkg.Other.*");
    assert_string_equal(o.event, "trace");
    parses("start,event=cpu,trace=a.B.c(I)V:1ms,file=x.jfr");
    assert_true(o.extra_events[EVENT_TRACE]);
    refused("start,trace=Method,file=x.jfr", "trace=Method");
    refused("start,trace=a.B.c:fast", "threshold 'fast'");
    refused("start,trace,file=x.jfr", "trace=pkg.Class.method");
    refused("start,event=cpu,event=wall", "event=cpu,wall");
    refused("start,bogus", "accepted:");
    /* The whole list of accepted options fits the message. */
    assert_non_null(strstr(err, "chunktime= lines"));
    /* async-profiler's OpenTelemetry output is one of ours; so is its counter on a dump of its own. */
    parses("start,otlp,file=x.pb");
    assert_int_equal(o.format, FORMAT_OTLP);
    parses("otlp,total");
    assert_true(o.total && o.counter_given);
    parses("dump,file=x.html");
    assert_false(o.counter_given);
    parses("start,loglevel=INFO");
    parses("start,features=agct+mixed");   /* mixed: what cstack=vm does anyway */
    assert_int_equal(o.features, PROF_FEATURE_AGCT);
    assert_string_equal(o.ignored, "");
    parses("start,features=agct+vtable");
    assert_int_equal(o.features, PROF_FEATURE_AGCT | PROF_FEATURE_VTABLE);
    parses("start,features=comptask+vtable");
    assert_int_equal(o.features, PROF_FEATURE_COMPTASK | PROF_FEATURE_VTABLE);
    refused("start,features=bogus", "accepted: agct");
    parses("start,event=lock,lock=1ms");   /* the session's own event's interval, not a second engine */
    assert_false(o.extra_events[EVENT_LOCK]);
    assert_int_equal(o.lock_ns, 1000000);
    parses("start,event=java.util.HashMap.get,wall");
    assert_true(o.extra_events[EVENT_WALL]);
    parses("start,event=wall,wall=20ms");
    assert_false(o.extra_events[EVENT_WALL]);
    assert_int_equal(o.interval_ns, 20000000);
}

static void test_jfr(void **state) {
    (void)state;
    parses("start,file=/tmp/p.jfr");
    assert_int_equal(options_effective_format(&o), FORMAT_JFR);
    assert_string_equal(options_format_name(FORMAT_JFR), "jfr");
    assert_int_equal(o.chunk_size, 100ULL << 20);
    assert_int_equal(o.chunk_time_ns, 3600ULL * 1000000000ULL);
    parses("jfr,file=/tmp/recording.data");
    assert_int_equal(options_effective_format(&o), FORMAT_JFR);
    parses("collapsed,file=/tmp/p.jfr");   /* an explicit format wins over the extension */
    assert_int_equal(options_effective_format(&o), FORMAT_COLLAPSED);
    refused("jfr=1", "jfr");

    parses("chunksize=16k");
    assert_int_equal(o.chunk_size, 16384);
    parses("chunksize=100m");
    assert_int_equal(o.chunk_size, 100ULL << 20);
    parses("chunksize=2G");
    assert_int_equal(o.chunk_size, 2ULL << 30);
    parses("chunksize=1048576");
    assert_int_equal(o.chunk_size, 1048576);
    refused("chunksize=1000", "chunksize=1000");   /* below 1k */
    refused("chunksize=10x", "chunksize=10x");
    refused("chunksize=10kb", "100m");
    refused("chunksize=-1", "chunksize=-1");
    refused("chunksize=", "chunksize");
    refused("chunksize=99999999999999999999g", "99999999999999999999g");

    parses("chunktime=10s");
    assert_int_equal(o.chunk_time_ns, 10ULL * 1000000000ULL);
    parses("chunktime=5m");
    assert_int_equal(o.chunk_time_ns, 300ULL * 1000000000ULL);
    parses("chunktime=1h");
    assert_int_equal(o.chunk_time_ns, 3600ULL * 1000000000ULL);
    parses("chunktime=30");   /* seconds */
    assert_int_equal(o.chunk_time_ns, 30ULL * 1000000000ULL);
    parses("chunktime=1500ms");
    assert_int_equal(o.chunk_time_ns, 1500000000ULL);
    refused("chunktime=500ms", "chunktime=500ms");   /* below 1s */
    refused("chunktime=0", "at least 1s");
    refused("chunktime=1w", "chunktime=1w");
    refused("chunktime=m", "chunktime=m");
    refused("chunktime=", "5m");
    refused("chunktime=99999999999999h", "99999999999999h");
}

/* The embedding options: loop=, filter, the metrics action. */
static void test_embedding_options(void **state) {
    (void)state;
    assert_int_equal(options_parse("start,loop=2s,filter", &o, err, sizeof(err)), 0);
    assert_int_equal(o.loop_ns, 2000000000ULL);
    assert_true(o.thread_filter);
    assert_int_equal(options_parse("start,loop=10m", &o, err, sizeof(err)), 0);
    assert_int_equal(o.loop_ns, 600000000000ULL);
    assert_int_equal(options_parse("start,loop=500ms", &o, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "option 'loop=500ms': expected a duration of at least 1s"));
    refused("loop=", "at least 1s");
    refused("loop=2w", "loop=2w");
    assert_int_equal(options_parse("start,loop=1m,timeout=30", &o, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "'loop' and 'timeout' conflict"));
    /* async-profiler's time of day: loop=*:00 at every full hour, timeout=23:30 at the next 23:30. */
    assert_int_equal(options_parse("start,loop=*:00", &o, err, sizeof(err)), 0);
    assert_int_equal(o.loop_ns, 0);
    assert_int_equal(o.loop_clock, 0x01ff0000u);
    assert_int_equal(options_parse("start,timeout=23:30:15", &o, err, sizeof(err)), 0);
    assert_int_equal(o.timeout_clock, 0x01171e0fu);
    assert_int_equal(o.timeout_s, 0);
    assert_int_equal(options_parse("start,timeout=23:30,timeout=5s", &o, err, sizeof(err)), 0);   /* the last wins */
    assert_int_equal(o.timeout_clock, 0);
    assert_int_equal(o.timeout_s, 5);
    assert_int_equal(options_parse("start,loop=00:00,timeout=01:00", &o, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "'loop' and 'timeout' conflict"));
    refused("timeout=24:00", "option 'timeout=24:00': expected a time of day HH:MM");
    refused("loop=12:*", "option 'loop=12:*': expected a time of day");
    refused("loop=1:2:3:4", "loop=1:2:3:4");
    refused("timeout=soon", "or a time of day such as 23:00");
    refused("interval=1:00", "interval=1:00");   /* a sampling interval has no time of day */
    assert_int_equal(options_parse("metrics,file=/tmp/m.prom", &o, err, sizeof(err)), 0);
    assert_int_equal(o.action, ACTION_METRICS);
    assert_string_equal(options_action_name(o.action), "metrics");
    assert_int_equal(options_parse("start,file=p-%n{3}-%n.collapsed", &o, err, sizeof(err)), 0);
    /* The file kind's checker takes the loop's patterns and lists them among the accepted ones. */
    setenv("LIBPROF_TEST_OPT_ENV", "h1", 1);
    assert_int_equal(options_parse("start,file=/tmp/%{LIBPROF_TEST_OPT_ENV}-%n{2}.html", &o, err, sizeof(err)), 0);
    refused("file=/tmp/a%x", "option 'file=/tmp/a%x': unknown pattern '%x'; accepted: %p (pid), %t (timestamp), "
                             "%n (loop sequence), %n{MAX} (sequence modulo MAX, 1 to 1000000), %{NAME} "
                             "(environment variable), %% (a '%')");
    refused("file=/tmp/%n{0}", "%n{MAX} (sequence modulo MAX");
    unsetenv("LIBPROF_TEST_OPT_UNSET");
    refused("file=/tmp/%{LIBPROF_TEST_OPT_UNSET}", "option 'file=/tmp/%{LIBPROF_TEST_OPT_UNSET}': environment "
                                                  "variable LIBPROF_TEST_OPT_UNSET is not set");
    refused("file=/tmp/%{A-B}", "option 'file=/tmp/%{A-B}': '%{' must name an environment variable");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults),   cmocka_unit_test(test_actions),
        cmocka_unit_test(test_full_line),  cmocka_unit_test(test_events), cmocka_unit_test(test_wall_and_several_events),
        cmocka_unit_test(test_native_events),
        cmocka_unit_test(test_cpu_token),
        cmocka_unit_test(test_perf_events),
        cmocka_unit_test(test_intervals),  cmocka_unit_test(test_formats),
        cmocka_unit_test(test_numbers_and_names), cmocka_unit_test(test_too_long_and_too_many),
        cmocka_unit_test(test_durations),
        cmocka_unit_test(test_async_profiler_only_options), cmocka_unit_test(test_jfrsync_clock_windows),  cmocka_unit_test(test_html_formats), cmocka_unit_test(test_jfr),
        cmocka_unit_test(test_cstack), cmocka_unit_test(test_embedding_options),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
