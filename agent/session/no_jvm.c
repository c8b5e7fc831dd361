#define _GNU_SOURCE
#include "no_jvm.h"

#include "event_kind.h"
#include "agent_threads.h"
#include "method_target.h"
#include "periodic.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A new thread is armed within this time of its start: a thread shorter than that may go unsampled. */
#define LIST_PERIOD_NS 10000000L

static const char no_jvm_reason[] = "this process has no Java VM (libjvm not loaded, or JNI_CreateJavaVM not "
                                    "called yet)";

int no_jvm_refuse_java_only(const prof_options *o, char *err, size_t errlen) {
    const char *what = NULL;
    if (strcmp(o->event, "alloc") == 0 || o->extra_events[EVENT_ALLOC]) what = "alloc (Java heap allocations)";
    else if (strcmp(o->event, "lock") == 0 || o->extra_events[EVENT_LOCK]) what = "lock (Java monitors)";
    else if (method_target_is_target(o->event)) what = "event= of a Java method (instrumentation)";
    else if (o->features & PROF_FEATURE_AGCT) what = "features=agct (AsyncGetCallTrace)";
    else if (o->jfrsync[0]) what = "jfrsync (the JDK's Flight Recorder)";
    else if (o->ttsp) what = "ttsp (HotSpot's safepoints)";
    if (!what) return 0;
    snprintf(err, errlen, "%s needs a Java VM, and %s; without one libprof records cpu, wall, itimer, ctimer, "
             "perf events, nativemem and nativelock", what, no_jvm_reason);
    return -1;
}

typedef struct {
    int *tids;
    size_t count, capacity;
} tid_list;

static periodic lister;
static tid_list known;
static void (*on_started)(int);
static void (*on_ended)(int);

static int by_value(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* The process's threads now, sorted. -1 when /proc/self/task cannot be read or memory runs out. */
static int list_threads(tid_list *out) {
    out->count = 0;
    DIR *d = opendir("/proc/self/task");
    if (!d) return -1;
    struct dirent *e;
    while ((e = readdir(d))) {
        int tid = atoi(e->d_name);
        if (tid <= 0) continue;
        if (out->count == out->capacity) {
            size_t cap = out->capacity ? out->capacity * 2 : 64;
            int *grown = realloc(out->tids, cap * sizeof(int));
            if (!grown) {
                closedir(d);
                return -1;
            }
            out->tids = grown;
            out->capacity = cap;
        }
        out->tids[out->count++] = tid;
    }
    closedir(d);
    qsort(out->tids, out->count, sizeof(int), by_value);
    return 0;
}

/* Both lists sorted: one merge tells the threads that came and went. */
static void tick(void) {
    static tid_list now;
    if (list_threads(&now)) return;
    size_t i = 0, j = 0;
    while (i < known.count || j < now.count) {
        if (j == now.count || (i < known.count && known.tids[i] < now.tids[j])) on_ended(known.tids[i++]);
        else if (i == known.count || now.tids[j] < known.tids[i]) {
            int tid = now.tids[j++];
            if (!agent_thread_is_ours((uint32_t)tid)) on_started(tid);   /* the profiler's own threads wait */
        }
        else i++, j++;
    }
    tid_list swap = known;
    known = now;
    now = swap;
}

void no_jvm_threads_note_current(void) {
    if (list_threads(&known)) known.count = 0;
}

int no_jvm_threads_start(void (*started)(int tid), void (*ended)(int tid)) {
    on_started = started;
    on_ended = ended;
    return periodic_start(&lister, LIST_PERIOD_NS, tick);
}

void no_jvm_threads_stop(void) {
    periodic_stop(&lister);
}
