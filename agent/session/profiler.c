/*
 * profiler: the session state machine. Stopping disarms the engine first, then turns sampling off and waits
 * for handlers already running, so a dump never reads a stack that is half written and no sample lands in
 * a table being reset.
 */
#define _GNU_SOURCE
#include "agent_threads.h"
#include "profiler.h"
#include "rate_limits.h"

#include "clock_ns.h"
#include "clock_time.h"
#include "codeheap.h"
#include "codeheap_init.h"
#include "walk_vm.h"
#include "walk_vm_check.h"
#include "heatmap_timeline.h"
#include "named_profile.h"
#include "engine.h"
#include "engine_registry.h"
#include "filepath.h"
#include "native_hooks_install.h"
#include "jvm.h"
#include "log.h"
#include "native_map.h"
#include "no_jvm.h"
#include "out_jfr.h"
#include "out_metrics.h"
#include "output.h"
#include "refresher.h"
#include "profiler_locked.h"
#include "reports.h"
#include "timers.h"
#include "profile.h"
#include "sample.h"
#include "sample_setup.h"
#include "safe_read_mode.h"
#include "sample_cost.h"
#include "trace_store.h"
#include "trace_store_swap.h"
#include "signal_watch.h"
#include "thread_filter_init.h"
#include "threads.h"
#include "traces.h"
#include "window_hooks.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define TABLE_SLOTS (256 * 1024)
/* Frames of the arena: 16M packed words (signal/trace_pack.h), 128 MB of address space touched only as
 * stacks arrive; 100K stacks of ~48 frames touch 37 MB of it. */
#define TABLE_FRAMES (16 * 1024 * 1024)

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

pthread_mutex_t *profiler_lock(void) {
    return &lock;
}
static bool running;
static bool vm_dead;
static const engine *_Atomic current_engine;   /* the session's first engine (event=) */
/* Every engine of the session, the first included, with its interval (sample.h: engines[0] is event='s).
 * Written under the lock while no engine runs; thread callbacks read them without it. */
static const engine *_Atomic session_engines[SAMPLE_MAX_ENGINES];
static uint64_t session_intervals[SAMPLE_MAX_ENGINES];
static _Atomic int session_engine_count;
static prof_options session;      /* options of the running (or last) session */
static uint64_t started_ns, active_ns; /* active_ns: time profiled before the current run (resume) */
static uint64_t started_unix_ns;       /* the wall clock when the session (or loop period) began */
static trace_table *table;
static trace_table *jfr_spare;         /* JFR sessions: the second trace table (out_jfr.h) */
static trace_table *loop_spare;        /* loop= sessions of other formats: the table periods take turns in */
static bool loop_goes_on;              /* this session's loop periods end without stopping the engines */
static prof_cstack effective_cstack;   /* the walking mode the running session really uses */
/* The running (or last) session was started in a process with no JVM (no_jvm.h). */
static bool session_no_jvm;
static prof_options deferred;
static bool have_deferred;

static uint64_t session_id;       /* lets a stale timeout thread see that its session has ended */

/* Slots of each trace table; LIBPROF_TEST_TRACE_SLOTS (tests only) makes them few, to fill them quickly. */
static size_t table_slots(void) {
    const char *test = getenv("LIBPROF_TEST_TRACE_SLOTS");
    long n = test ? atol(test) : 0;
    return n > 0 ? (size_t)n : TABLE_SLOTS;
}

/* Creates *t once (the tables live as long as the process). */
static int reserve_table(trace_table **t, char *err, size_t errlen) {
    if (!*t && !(*t = traces_create(table_slots(), TABLE_FRAMES))) {
        snprintf(err, errlen, "cannot reserve memory for call-trace storage");
        return -1;
    }
    return 0;
}

/* The table holding the session's stacks: a JFR session moves between two (out_jfr.h). */
static trace_table *live_table(void) {
    trace_table *t = trace_store_current();
    return t ? t : table;
}

static uint64_t elapsed_ns(void) {
    return active_ns + (running ? clock_mono_ns() - started_ns : 0);
}

/* The loop's state, read by the reports (the loop thread below owns it). */
static unsigned long loop_sequence;
static bool loop_waiting;

/* The running (or last) session as the reports see it. Caller holds the lock. */
static session_facts facts(void) {
    session_facts f = {.running = running, .has_run = table != NULL, .session = &session,
                       .first = atomic_load(&current_engine), .elapsed_ns = elapsed_ns(), .started_unix_ns = started_unix_ns,
                       .table = table ? live_table() : NULL, .cstack = effective_cstack,
                       .loop_shown = options_loops(&session) && (running || loop_waiting),
                       .loop_period = loop_sequence, .loop_waiting = loop_waiting};
    f.engine_count = atomic_load(&session_engine_count);
    for (int i = 0; i < f.engine_count; i++) {
        f.engines[i] = atomic_load(&session_engines[i]);
        f.intervals[i] = session_intervals[i];
    }
    return f;
}

/* The session's engine recording 'event' and its interval, or NULL. */
static const engine *engine_of_event(event_kind event, uint64_t *interval) {
    session_facts f = facts();
    return reports_engine_of_event(&f, event, interval);
}

/* What a text, collapsed or HTML output of 'view' holds: the event its event= names when it is one of the
 * session's, else the session's first. */
static event_kind output_event(const prof_options *view) {
    const engine *first = atomic_load(&current_engine);
    event_kind chosen = options_event_kind(view->event);
    if (view->event_given && engine_of_event(chosen, NULL)) return chosen;
    return first ? first->event : EVENT_CPU;
}

/* Writes the profile for 'o' (its file and format, the session's naming) of the session's samples, or of
 * 'from' when not NULL. Caller holds the lock. */
static int dump_from_locked(const prof_options *o, const dump_source *from, char *err, size_t errlen) {
    if (!table) {
        snprintf(err, errlen, "nothing to dump: the profiler has not run");
        return -1;
    }
    prof_options view = session;
    /* A later dump/stop may name its own destination and format. */
    if (o != &session && (o->file[0] || o->format != FORMAT_AUTO)) {
        memcpy(view.file, o->file, sizeof(view.file));
        view.format = o->format;
        view.traces = o->traces;
        view.flat = o->flat;
    }
    if (o != &session && o->counter_given) view.total = o->total;
    /* A JFR session's recording: a dump copies it so far, the end of the session completes it. The
     * session's own format is written only there; another format asked for is built as usual. */
    if (out_jfr_active() && (!running || options_effective_format(&view) == FORMAT_JFR)) {
        bool jfr_view = options_effective_format(&view) == FORMAT_JFR;
        uint64_t samples = 0;
        for (int i = 0; !running && i < atomic_load(&session_engine_count); i++) {
            const engine *e = atomic_load(&session_engines[i]);
            if (e && e->recording_end) e->recording_end();
        }
        int rc = running ? out_jfr_dump(&view, err, errlen)
                         : out_jfr_finish(jfr_view ? &view : &session, &samples, err, errlen);
        profile meta;
        profile_init(&meta);
        session_facts f = facts();
        reports_fill_meta(&meta, output_event(&session), &f, from);
        if (rc == 0) reports_log_losses(&meta);
        profile_free(&meta);
        if (jfr_view || rc) return rc;
    }
    if (options_effective_format(&view) == FORMAT_JFR) {
        snprintf(err, errlen, "a JFR recording is written only by a session started with the jfr format");
        return -1;
    }
    profile p;
    profile_init(&p);
    view.event_given = o != &session && o->event_given;
    if (view.event_given) memcpy(view.event, o->event, sizeof(view.event));
    event_kind event = output_event(&view);
    /* An event that decides what counts only now (alloc,live) gives a table of its own to read. */
    const engine *shown = engine_of_event(event, NULL);
    trace_table *source = from ? from->table : shown && shown->dump_table ? shown->dump_table() : NULL;
    int rc = !source && options_effective_format(&view) == FORMAT_HEATMAP
             ? heatmap_timeline_build(live_table(), &view, event, &p)
             : named_profile_build(source ? source : live_table(), &view, event, &p);
    if (rc) snprintf(err, errlen, "out of memory while building the profile");
    else {
        session_facts f = facts();
        reports_fill_meta(&p, event, &f, from);
        p.meta.total = view.total;
        rc = output_write_profile(&view, &p, err, errlen);
    }
    if (rc == 0) {
        log_info("profile written to %s (%llu samples, %zu distinct stacks)", view.file[0] ? view.file : "stdout",
                 (unsigned long long)p.total_samples, p.stack_count);
        reports_log_losses(&p);
    }
    profile_free(&p);
    return rc;
}

static int dump_locked(const prof_options *o, char *err, size_t errlen) {
    return dump_from_locked(o, NULL, err, errlen);
}

/* stop/dump after the session ended (by timeout=, jprof -d, a stop): like asprof, write the last session's
 * profile again, in the format and file asked for. Its stacks stay until the next start. A JFR session's
 * table holds only what its last chunk had not yet written, so its recording is the one it finished. */
static int dump_ended_locked(const prof_options *o, char *err, size_t errlen) {
    if (!atomic_load(&current_engine) || !table) {
        snprintf(err, errlen, "profiler is not running: nothing to %s", options_action_name(o->action));
        return -1;
    }
    if (options_effective_format(&session) == FORMAT_JFR) {
        snprintf(err, errlen, "the last session, a JFR recording, has ended: its recording is %s",
                 session.file[0] ? session.file : "what it wrote to stdout");
        return -1;
    }
    return dump_locked(o, err, errlen);
}

static void stop_locked(void) {
    signal_watch_stop();   /* first: it may move the engine to another signal */
    if (session_no_jvm) no_jvm_threads_stop();
    for (int i = atomic_load(&session_engine_count); i-- > 0;) atomic_load(&session_engines[i])->stop();
    sample_set_active(false);
    rate_limits_stop();
    window_hooks_stop();
    refresher_stop();
    if (!sample_wait_idle(2000)) log_warn("signal handlers still busy after 2 s; dumping anyway");
    heatmap_timeline_stop();
    sample_counters c;
    sample_get_counters(&c);
    if (c.foreign)
        log_info("ignored %llu profiling signals the engine did not send (kill, sigqueue, another timer)",
                 (unsigned long long)c.foreign);
    active_ns += clock_mono_ns() - started_ns;
    running = false;
    session_id++;
    pthread_cond_broadcast(timers_cond());
}

bool profiler_is_session_locked(uint64_t id) {
    return running && session_id == id;
}

bool profiler_session_alive_locked(uint64_t id) {
    return running && session_id == id && !vm_dead;
}

uint64_t profiler_timeout_ns_locked(void) {
    /* A time of day is read on the real-time clock before the monotonic one: the deadline can only come
     * late by the time between the two, never before that moment. */
    return session.timeout_clock ? clock_time_ns_until(session.timeout_clock) : (uint64_t)session.timeout_s * 1000000000ULL;
}

void profiler_timeout_reached_locked(void) {
    char err[512];
    log_info("timeout of %d s reached: stopping", session.timeout_s);
    stop_locked();
    if (dump_locked(&session, err, sizeof(err))) log_error("%s", err);
}

/* The engine's interval in its units: alloc=BYTES and lock=DURATION are theirs (interval= also sets them
 * when alloc or lock is the session's event, as async-profiler's -e alloc -i N and -e lock -i N do); other
 * engines beside event= have theirs from their option (wall=INTERVAL). */
static uint64_t engine_interval(const prof_options *o, const engine *e, bool first) {
    if (e->option_interval) return e->option_interval(o, first);
    if (!first) return o->extra_intervals[e->event] ? o->extra_intervals[e->event] : e->default_interval;
    return o->interval_ns ? o->interval_ns : e->default_interval;
}

/* loop=: at each period's end (timers.c) the period's profile is ended as a stop would end it (its file
 * complete: a JFR recording finished, a text format written) and the next one starts under the next %n.
 * loop_restarting: start_locked called by the loop itself (no second loop thread). loop_waiting (above): a
 * period could not start (its file could not be created, say): it is tried again when that period would
 * have ended, each period keeping its number; `stop` ends the wait. */
static bool loop_restarting;
static int start_locked(const prof_options *o, bool resume, char *err, size_t errlen);

/* Ends a loop period without stopping (loop_goes_on) and moves on to the next %n: the engines go on
 * sampling while the finished period is named and written, which is most of a period's end (0.1-0.3 s under
 * load, over a second the first time, when most methods are named): a restart left that much unsampled each
 * time. A JFR recording is finished and the next one opened by its writer (out_jfr_roll), the handlers'
 * records waiting in its queue meanwhile; another format swaps the trace store to the second table, writes
 * the finished one and empties it. The counters are taken at the period's end, so each sample and loss is
 * told in one period. Stops the engines only when it cannot go on (then `running` is false). */
static void loop_rotate_locked(void) {
    bool jfr = out_jfr_active();
    dump_source finished = {.table = trace_store_current()};
    int swapped = jfr ? 0 : trace_store_swap(2000);
    uint64_t now = clock_mono_ns();
    sample_take_counters(&finished.counters);
    finished.duration_ns = active_ns + now - started_ns;
    finished.started_unix_ns = started_unix_ns;
    active_ns = 0;
    started_ns = now;
    started_unix_ns = clock_ns(CLOCK_REALTIME);
    threads_snapshot_os_names();
    char err[512];
    if (jfr) {
        unsigned long period = loop_sequence;
        filepath_set_sequence(++loop_sequence);
        uint64_t samples = 0;
        int rc = out_jfr_roll(&session, &samples, err, sizeof(err));
        if (rc > 0) {   /* a failed recording: finished as a stop finishes it, then restarted */
            stop_locked();
            if (dump_from_locked(&session, &finished, err, sizeof(err))) log_error("loop: %s", err);
            return;
        }
        if (rc < 0) log_error("loop: %s", err);
        if (!out_jfr_active()) stop_locked();   /* no next recording: restarted */
        profile meta;
        profile_init(&meta);
        session_facts f = facts();
        reports_fill_meta(&meta, output_event(&session), &f, &finished);
        reports_log_losses(&meta);
        profile_free(&meta);
        log_debug("loop: period %lu written in %.1f ms while the next one was sampled", period,
                  (clock_mono_ns() - now) / 1e6);
        return;
    }
    if (swapped < 0) {
        /* Emptying a table a handler may still write would break it: end this period by restarting the engines. */
        log_warn("loop: a signal handler held the finished period's trace table for 2 s: restarting the "
                 "engines, so the samples since the period's end are lost");
        stop_locked();
    }
    if (dump_from_locked(&session, &finished, err, sizeof(err))) log_error("loop: %s", err);
    log_debug("loop: period %lu written in %.1f ms while the next one was sampled", loop_sequence,
              (clock_mono_ns() - now) / 1e6);
    traces_reset(finished.table);
    filepath_set_sequence(++loop_sequence);
}

uint64_t profiler_loop_period_ns_locked(bool *from_now) {
    /* loop=*:00: each period ends at the next such time of day, counted from now (the restart took some
     * milliseconds past the last one), the real-time clock read first so that the deadline is never early
     * (an early one would find the same moment still ahead and end a period twice for it); a duration's
     * periods follow each other from the first start. */
    *from_now = session.loop_clock != 0;
    return session.loop_clock ? clock_time_ns_until(session.loop_clock) : session.loop_ns;
}

bool profiler_loop_goes_on_locked(uint64_t id) {
    return (running || loop_waiting) && session_id == id && !vm_dead;
}

uint64_t profiler_loop_period_end_locked(void) {
    prof_options next = session;
    char err[512];
    uint64_t ended = clock_mono_ns();
    if (loop_waiting) {
        filepath_set_sequence(++loop_sequence);   /* the period that could not start keeps its number */
    } else if (loop_goes_on) {
        loop_rotate_locked();   /* stops the engines only when it cannot go on */
    } else {
        stop_locked();
        if (dump_locked(&session, err, sizeof(err))) log_error("loop: %s", err);
        filepath_set_sequence(++loop_sequence);
    }
    if (running) return session_id;   /* the engines never stopped */
    loop_restarting = true;
    int rc = start_locked(&next, false, err, sizeof(err));
    loop_restarting = false;
    if (rc) {
        log_error("loop: cannot start period %lu: %s; trying again when it would have ended", loop_sequence, err);
        loop_waiting = true;
        return session_id;
    }
    if (loop_waiting) log_info("loop: period %lu started (the periods that could not start were not sampled)", loop_sequence);
    else
        log_debug("loop: %.1f ms unsampled between periods %lu and %lu (stopped, written, restarted)",
                  (clock_mono_ns() - ended) / 1e6, loop_sequence - 1, loop_sequence);
    loop_waiting = false;
    return session_id;
}

/* The engines a session runs: event='s first, then one per kind named beside it (event=cpu,wall). */
typedef struct {
    const engine *list[SAMPLE_MAX_ENGINES];
    uint64_t intervals[SAMPLE_MAX_ENGINES];
    int count;
} session_engine_set;

static int choose_engines(const prof_options *o, session_engine_set *set, char *err, size_t errlen) {
    const engine *e = engine_choose(o, !o->quiet, err, errlen);
    if (!e) return -1;
    *set = (session_engine_set){.list = {e}, .count = 1};
    for (int k = 0; k < EVENT_KIND_COUNT; k++) {
        if (!o->extra_events[k]) continue;
        if (k == (int)e->event) {
            snprintf(err, errlen, "event=%s records %s samples already: '%s' beside it is for another event "
                     "(interval= sets its interval)", o->event, event_kind_name((event_kind)k),
                     event_kind_name((event_kind)k));
            return -1;
        }
        const engine *extra = engine_for_event((event_kind)k, o, err, errlen);
        if (!extra) return -1;
        set->intervals[set->count] = engine_interval(o, extra, false);
        set->list[set->count++] = extra;
    }
    set->intervals[0] = engine_interval(o, e, true);
    return 0;
}

/* The stack walking mode the session can really use: what was asked for, or the nearest one that works
 * here (said in the log). Stacks are walked from signals only when some engine sends them. *agct: Java
 * frames come from AsyncGetCallTrace. */
static prof_cstack choose_cstack(const prof_options *o, const session_engine_set *set, bool *agct) {
    bool signals = false;
    for (int i = 0; i < set->count; i++) signals = signals || engine_walks_native(set->list[i]);
    prof_cstack cstack = !signals ? CSTACK_NO : o->cstack == CSTACK_DEFAULT ? CSTACK_VM : o->cstack;
    char why[256];
    if (session_no_jvm) {
        /* No JVM: every frame is native, and the VM walk's Java half has nothing to read. cstack=no would
         * leave nothing at all: the stacks are walked by DWARF, or by frame pointers when asked. */
        if (cstack == CSTACK_NO && signals) log_info("cstack=no: no JVM here, so no Java frames: walking native "
                                                      "frames with cstack=dwarf");
        if (cstack == CSTACK_VM || (cstack == CSTACK_NO && signals)) cstack = CSTACK_DWARF;
        if (cstack != CSTACK_NO && native_map_refresh() < 0) {
            log_warn("cannot read /proc/self/maps: native frames by frame pointers only");
            cstack = CSTACK_FP;
        }
        *agct = false;
        return cstack;
    }
    if (cstack != CSTACK_NO) {
        /* The unwind tables and the map of native code the walkers read in the handler. */
        if (native_map_refresh() < 0) {
            log_warn("cannot read /proc/self/maps: native frames by frame pointers only");
            if (cstack == CSTACK_DWARF || cstack == CSTACK_VM) cstack = CSTACK_FP;
        } else {
            native_map_stats st = native_map_get_stats();
            log_debug("native code: %zu objects, %zu symbols, %zu unwind rows", st.objects, st.symbols,
                      st.unwind_rows);
        }
    }
    if (cstack != CSTACK_NO && codeheap_init(why, sizeof(why))) {
        /* Without the code cache bounds a native walk cannot tell where Java code begins. */
        log_warn("cstack=%s unavailable (%s): Java frames only", options_cstack_name(cstack), why);
        cstack = CSTACK_NO;
    }
    if (cstack == CSTACK_VM && walk_vm_check(why, sizeof(why))) {
        /* Logged when asked for explicitly or at debug level: the default falls back quietly to stitching. */
        if (o->cstack == CSTACK_VM) log_warn("cstack=vm unavailable (%s): stitching with cstack=dwarf", why);
        else log_info("cstack=vm unavailable (%s): using cstack=dwarf", why);
        cstack = CSTACK_DWARF;
    }
    *agct = (o->features & PROF_FEATURE_AGCT) != 0;
    if (cstack == CSTACK_VM && !*agct && !walk_vm_names_frames()) {
        log_warn("cstack=vm: the walker cannot name Java frames on this JVM (see the log at info level): "
                 "taking them from AsyncGetCallTrace");
        *agct = true;
    }
    return cstack;
}

/* Where the handlers store: the session's table (kept when resuming), the loop's or the JFR recording's
 * second table, the JFR queue; and the handlers' own configuration. On failure nothing is left running. */
static int configure_storage(const prof_options *o, const session_engine_set *set, prof_cstack cstack, bool agct,
                             bool keep, bool *goes_on, char *err, size_t errlen) {
    const engine *e = set->list[0];
    sample_config cfg = {jvm_vm(), jvm_asgct(), o->jstackdepth, set->intervals[0], jvm_tracks_all_java_threads(),
                         cstack, agct, e, o->record_cpu ? e : NULL, set->count, {0}, {0},
                         (o->features & PROF_FEATURE_VTABLE) != 0, (o->features & PROF_FEATURE_COMPTASK) != 0,
                         o->jstackdepth_cut};
    for (int i = 0; i < set->count; i++) {
        cfg.engines[i] = set->list[i];
        cfg.intervals[i] = set->intervals[i];
    }
    /* Resuming keeps the stacks where they are: a loop may have left them in its second table. */
    trace_table *first = keep ? live_table() : table;
    trace_store_config store = {first, NULL, NULL, o->threads};
    *goes_on = options_loops(o);
    /* alloc,live (the one engine with a dump table, when live) reads a table of its own at each dump. */
    for (int i = 0; i < set->count; i++) *goes_on = *goes_on && !(set->list[i]->dump_table && o->live);
    if (*goes_on && options_effective_format(o) != FORMAT_JFR) {
        if (reserve_table(&loop_spare, err, errlen)) return -1;
        store.spare = first == table ? loop_spare : table;
        traces_reset(store.spare);
    }
    if (options_effective_format(o) == FORMAT_JFR) {
        if (reserve_table(&jfr_spare, err, errlen)) return -1;
        traces_reset(jfr_spare);
        out_jfr_config jfr = {&session, e->name, options_cstack_name(cstack), table, jfr_spare, signal_watch_note};
        if (!(store.ring = out_jfr_start(&jfr, err, errlen))) return -1;
        store.spare = jfr_spare;
    }
    /* A heatmap needs each sample's time: queued like a recording's, counted by heatmap_timeline. */
    if (options_effective_format(o) == FORMAT_HEATMAP && store.spare)
        log_warn("heatmap with loop=: the periods' tables take turns, so the page has no sample times (an empty "
                 "strip); record file=x.jfr and convert it with jfrconv -o heatmap");
    else if (options_effective_format(o) == FORMAT_HEATMAP && !(store.ring = heatmap_timeline_start(keep))) {
        snprintf(err, errlen, "cannot start counting samples by time for the heatmap (out of memory)");
        return -1;
    }
    trace_store_configure(&store);
    if (sample_configure(&cfg)) {
        snprintf(err, errlen, "cannot allocate stack buffers for jstackdepth=%d", o->jstackdepth);
        out_jfr_abort();
        return -1;
    }
    threads_snapshot_os_names();
    if (!keep) {
        traces_reset(first);
        sample_reset_counters();
        active_ns = 0;
    }
    return 0;
}

/* filter=: the threads the session samples (the API adds to them later). */
static int configure_thread_filter(const prof_options *o, char *err, size_t errlen) {
    if (o->thread_filter && thread_filter_init()) {
        snprintf(err, errlen, "filter: cannot reserve the thread filter's bitmap");
        return -1;
    }
    /* filter=120-127;132: Linux ids stay below PID_MAX_LIMIT (2^22), which bounds a range such as
     * 1-4294967295. */
    for (int i = 0; i < o->tid_range_count; i++)
        for (uint64_t tid = o->tid_ranges[i][0]; tid <= o->tid_ranges[i][1] && tid < (1u << 22); tid++)
            thread_filter_set((int)tid, true);
    thread_filter_enable(o->thread_filter);
    return 0;
}

/* Publishes the engines to the thread callbacks and starts them in order; a failure stops those started. */
static int start_engines(const prof_options *o, const session_engine_set *set, char *err, size_t errlen) {
    atomic_store(&current_engine, set->list[0]);
    atomic_store(&session_engine_count, 0);
    for (int i = 0; i < set->count; i++) {
        atomic_store(&session_engines[i], set->list[i]);
        session_intervals[i] = set->intervals[i];
    }
    sample_set_active(true);
    for (int i = 0; i < set->count; i++) {
        if (set->list[i]->start(o, set->intervals[i], err, errlen) == 0) {
            atomic_store(&session_engine_count, i + 1);
            continue;
        }
        while (i-- > 0) set->list[i]->stop();
        atomic_store(&session_engine_count, 0);
        sample_set_active(false);
        sample_wait_idle(2000);
        return -1;
    }
    return 0;
}

static void log_started(const prof_options *o, const session_engine_set *set, prof_cstack cstack) {
    if (o->quiet) return;
    const engine *e = set->list[0];
    log_info("profiling started: engine %s, interval %llu %s, cstack=%s", e->name,
             (unsigned long long)set->intervals[0], engine_units_name(e->units), options_cstack_name(cstack));
    for (int i = 1; i < set->count; i++)
        log_info("also recording %s: engine %s, interval %llu %s", event_kind_name(set->list[i]->event),
                 set->list[i]->name, (unsigned long long)set->intervals[i], engine_units_name(set->list[i]->units));
}

static int start_loop(char *err, size_t errlen) {
    loop_sequence = 0;
    filepath_set_sequence(0);
    return timers_start_loop(session_id, err, errlen);
}

/* The process that started the last session with no JVM. */
static _Atomic pid_t no_jvm_pid;

/* exit() of a process that started a session with no JVM: no VMDeath comes, so the session's profile is
 * written here. Not in a child forked from it: the session's threads are not there (joining them would
 * never end), and the lock may have been held by a thread of the parent at the fork. */
static void on_process_exit(void) {
    if (getpid() != atomic_load(&no_jvm_pid)) return;
    pthread_mutex_lock(&lock);
    if (running) {   /* the session of a native program, or of the JVM it hosts and never destroyed */
        char err[512];
        stop_locked();
        if (dump_locked(&session, err, sizeof(err))) log_error("%s", err);
    }
    pthread_mutex_unlock(&lock);
}

/* Once per process: the library stays mapped until exit, so the handler is still there to run. */
static void watch_process_exit(void) {
    static bool registered;
    if (registered) return;
    Dl_info info;
    if (dladdr((void *)on_process_exit, &info) && info.dli_fname)
        dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
    registered = atexit(on_process_exit) == 0;
    if (!registered) log_warn("cannot register the exit handler: stop the session before exit, or its profile is lost");
}

/* A session's start, in order: its engines, the session's options, the walking mode, storage, the thread
 * filter, the engines started, then the threads that serve the session (native map refresher, signal
 * watch, timeout, loop). */
static int start_locked(const prof_options *o, bool resume, char *err, size_t errlen) {
    if (running) {
        snprintf(err, errlen, "profiler already running (engine %s); stop it first",
                 atomic_load(&current_engine)->name);
        return -1;
    }
    bool no_jvm = jvm_vm() == NULL;
    if (no_jvm && no_jvm_refuse_java_only(o, err, errlen)) return -1;
    if (o->jfrsync[0] && options_effective_format(o) != FORMAT_JFR) {
        snprintf(err, errlen, "jfrsync merges with the JDK's recording into a JFR file: give file=NAME.jfr (or jfr)");
        return -1;
    }
    if (o->jfrsync[0] && options_loops(o)) {
        snprintf(err, errlen, "jfrsync does not go with loop=: the JDK's recording is one recording; for periodic "
                 "files use the JDK's own (jcmd JFR.start maxage=...) or loop= without jfrsync");
        return -1;
    }
    session_engine_set set;
    if (choose_engines(o, &set, err, errlen)) return -1;
    const engine *e = set.list[0];
    uint64_t interval = set.intervals[0];
    safe_read_mode_choose();   /* before the first walk or VM structure read */
    if (reserve_table(&table, err, errlen)) return -1;
    /* Resuming keeps the stored stacks, so it must keep the way they were keyed; a JFR recording streams
     * from the first sample, so it never keeps the stacks of a previous session. */
    bool keep = resume && atomic_load(&current_engine) != NULL && session.threads == o->threads &&
                session.jstackdepth == o->jstackdepth &&
                session.jstackdepth_cut == o->jstackdepth_cut && options_effective_format(o) != FORMAT_JFR;
    session = *o;
    session.interval_ns = interval;
    /* timeout=23:00: the seconds from now to that time of day (for the log; the timeout thread counts in ns). */
    if (session.timeout_clock)
        session.timeout_s = (int)clock_time_seconds_until(session.timeout_clock, time(NULL));
    for (int i = 1; i < set.count; i++) session.extra_intervals[set.list[i]->event] = set.intervals[i];
    session_no_jvm = no_jvm;
    bool agct;
    prof_cstack cstack = choose_cstack(o, &set, &agct);
    effective_cstack = cstack;
    bool goes_on;
    if (configure_storage(o, &set, cstack, agct, keep, &goes_on, err, errlen)) return -1;
    if (configure_thread_filter(o, err, errlen) || window_hooks_start(o, err, errlen)) {
        out_jfr_abort();
        return -1;
    }
    if (no_jvm) no_jvm_threads_note_current();
    if (rate_limits_start(o, err, errlen)) {
        window_hooks_stop();
        out_jfr_abort();
        return -1;
    }
    if (start_engines(o, &set, err, errlen)) {
        rate_limits_stop();
        window_hooks_stop();
        out_jfr_abort();
        return -1;
    }
    if (cstack != CSTACK_NO && refresher_start()) log_warn("cannot start the native code map refresher");
    if (no_jvm) {
        atomic_store(&no_jvm_pid, getpid());
        watch_process_exit();
    }
    if (no_jvm && no_jvm_threads_start(profiler_on_thread_start, profiler_on_thread_end))
        log_warn("cannot start the thread that finds new threads: threads created from now on are not sampled "
                 "by per-thread engines");
    if (e->delivery == ENGINE_DELIVERY_SIGNAL && signal_watch_start(e, interval, keep))
        log_warn("cannot start the thread that checks the profiling signal: a signal taken by another party "
                 "would go unnoticed");
    started_ns = clock_mono_ns();
    if (!resume || !started_unix_ns) started_unix_ns = clock_ns(CLOCK_REALTIME);
    running = true;
    loop_goes_on = goes_on;
    if (!loop_restarting) loop_waiting = false;   /* a new session: an old loop's wait ends with it */
    session_id++;
    if ((session.timeout_s && timers_start_timeout(session_id, session.timeout_s, err, errlen)) ||
        (options_loops(&session) && !loop_restarting && start_loop(err, errlen))) {
        stop_locked();
        out_jfr_abort();
        return -1;
    }
    log_started(o, &set, cstack);
    return 0;
}

int profiler_execute(const prof_options *o, char *err, size_t errlen) {
    if (errlen) err[0] = 0;   /* so that a failure whose path gives no reason cannot log the caller's garbage */
    pthread_mutex_lock(&lock);
    int rc = 0;
    if (vm_dead) {
        snprintf(err, errlen, "the JVM is shutting down");
        rc = -1;
    } else {
        switch (o->action) {
        case ACTION_START:
        case ACTION_RESUME:
            rc = start_locked(o, o->action == ACTION_RESUME, err, errlen);
            break;
        case ACTION_STOP:
        case ACTION_DUMP:
            if (!running && loop_waiting && o->action == ACTION_STOP) {
                /* Nothing was sampled since the period that could not start: ending the wait is the stop. */
                loop_waiting = false;
                session_id++;
                pthread_cond_broadcast(timers_cond());
                log_info("loop: stopped while waiting to start period %lu", loop_sequence);
            } else if (running) {
                if (o->action == ACTION_STOP) stop_locked();
                rc = dump_locked(o, err, errlen);
            } else {
                rc = dump_ended_locked(o, err, errlen);
            }
            break;
        case ACTION_STATUS:
            {
            session_facts f = facts();
            rc = reports_status(&f, o, err, errlen);
        }
            break;
        case ACTION_VERSION:
            /* The bare number, no newline, as async-profiler answers: integrations parse it as a version. */
            rc = output_write_text(o, LIBPROF_VERSION, err, errlen);
            break;
        case ACTION_METRICS:
            {
            session_facts f = facts();
            rc = reports_metrics(&f, output_event(&session), o, err, errlen);
        }
            break;
        case ACTION_NONE:
            break;
        }
    }
    pthread_mutex_unlock(&lock);
    if (rc && errlen && !err[0])
        snprintf(err, errlen, "%s failed for a reason libprof did not record (the log before this line may tell)",
                 options_action_name(o->action));
    return rc;
}

bool profiler_running(void) {
    pthread_mutex_lock(&lock);
    bool r = running;
    pthread_mutex_unlock(&lock);
    return r;
}

void profiler_defer_until_vm_init(const prof_options *o) {
    deferred = *o;
    have_deferred = true;
    if (o->action != ACTION_START && o->action != ACTION_RESUME) return;
    prof_options quiet = *o;   /* the choice is logged once, at the start */
    quiet.quiet = true;
    session_engine_set set;
    char why[256];
    if (choose_engines(&quiet, &set, why, sizeof(why))) return;   /* the start says why */
    for (int i = 0; i < set.count; i++)
        if (set.list[i]->at_load) set.list[i]->at_load(set.intervals[i]);
}

/* A session started before the process had a JVM (LD_PRELOAD in a native host) goes on in the JVM the
 * host created, which was handed the same command (api_preload.c): its engines restart there with Java
 * frames, keeping the stacks so far where resuming can (a JFR recording starts again). Caller holds the
 * lock; true when it took the JVM's start over. */
static bool continue_in_jvm_locked(const prof_options *o, char *err, size_t errlen) {
    if (!running || !session_no_jvm || (o->action != ACTION_START && o->action != ACTION_RESUME)) return false;
    log_info("a JVM started in this process: the session goes on in it, with Java frames");
    stop_locked();
    if (out_jfr_active()) out_jfr_abort();
    if (start_locked(o, true, err, errlen)) log_error("%s", err);
    return true;
}

void profiler_on_vm_init(void) {
    if (!have_deferred) return;
    have_deferred = false;
    char err[512];
    pthread_mutex_lock(&lock);
    bool continued = continue_in_jvm_locked(&deferred, err, sizeof(err));
    pthread_mutex_unlock(&lock);
    if (!continued && profiler_execute(&deferred, err, sizeof(err))) log_error("%s", err);
}

void profiler_on_vm_death(void) {
    pthread_mutex_lock(&lock);
    if (running) {
        char err[512];
        stop_locked();
        if (dump_locked(&session, err, sizeof(err))) log_error("%s", err);
    }
    vm_dead = true;
    pthread_cond_broadcast(timers_cond());
    pthread_mutex_unlock(&lock);
}

void profiler_on_thread_start(int tid) {
    for (int i = 0; i < atomic_load(&session_engine_count); i++) {
        const engine *e = atomic_load(&session_engines[i]);
        if (e->thread_start) e->thread_start(tid);
    }
}

void profiler_on_thread_end(int tid) {
    for (int i = 0; i < atomic_load(&session_engine_count); i++) {
        const engine *e = atomic_load(&session_engines[i]);
        if (e->thread_end) e->thread_end(tid);
    }
}
