/*
 * profile: a profile with every frame named, ready for the writers. Stacks whose frame names are identical
 * are merged into one, so each writer sees each distinct stack exactly once. Built by dump (from the live
 * trace table) or by tests (from synthetic data); read by every out_* writer.
 */
#ifndef LIBPROF_PROFILE_H
#define LIBPROF_PROFILE_H

#include "sample_cost.h"
#include "u64map.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* What a frame is, for annotations and colours. */
typedef enum {
    FTYPE_JAVA = 0,    /* Java, compilation type unknown */
    FTYPE_NATIVE,
    FTYPE_KERNEL,
    FTYPE_MARKER,
    FTYPE_THREAD,
    FTYPE_INTERPRETED, /* Java, by execution type (cstack=vm) */
    FTYPE_C1,
    FTYPE_JIT,
    FTYPE_INLINED,
    FTYPE_CLASS,       /* an allocation or lock sample's class (the leaf) */
} frame_type;

/* Whether a frame is a Java method, whatever its execution type. */
static inline bool frame_type_is_java(frame_type t) {
    return t == FTYPE_JAVA || t == FTYPE_INTERPRETED || t == FTYPE_C1 || t == FTYPE_JIT || t == FTYPE_INLINED;
}

/* async-profiler's 'ann' suffix of a Java frame type: _[0] _[1] _[j] _[i] (_[j] when unknown). */
static inline const char *frame_type_java_suffix(frame_type t) {
    return t == FTYPE_INTERPRETED ? "_[0]" : t == FTYPE_C1 ? "_[1]" : t == FTYPE_INLINED ? "_[i]" : "_[j]";
}

typedef struct {
    uint32_t *frames;  /* name ids, root first */
    int32_t *lines;    /* each frame's source line (0: unknown), or NULL: the stack carries no lines */
    uint32_t depth;
    uint64_t samples;
    uint64_t weight;
} profile_stack;

/* Where a named frame's code is, for the viewer formats (pprof, speedscope, Chrome, Firefox): the source
 * file ("" unknown) and the function's first line (0 unknown). */
typedef struct {
    char *file;
    int32_t start_line;
} profile_source;

/* One sample at its recorded time (jfrconv from a recording's events): the timeline formats write these
 * in time order instead of the order profile_timeline.h synthesises. */
typedef struct {
    uint64_t time_ns;
    uint32_t stack;    /* index into stacks */
} profile_tick;

/* A span of time in which the recording says something happened to the whole process (a garbage
 * collection): the Firefox format shows it as an interval marker. Times as profile_tick's. */
typedef struct {
    char *name;
    uint64_t start_ns, end_ns;
    bool slow_call;    /* a traced call over its threshold (jdk.MethodTrace), not a garbage collection */
} profile_span;

typedef struct {
    const char *name;
    uint64_t count;
} profile_count;

#define PROFILE_MAX_COUNTS 32

typedef struct {
    char engine[32];
    char event[512];
    char title[256];
    char units[16];          /* unit of the weight, e.g. "ns" */
    char counts[160];        /* what a sample and its weight stand for, for readers; "" for CPU samples */
    char sample_kind[32];    /* what a sample is in async-profiler's words, for the OpenTelemetry sample type;
                                "": named after the engine (out_otlp.c) */
    uint64_t interval_ns;
    uint64_t duration_ns;
    uint64_t start_unix_ns;  /* when the profiled time began (wall clock), 0 unknown */
    bool total;              /* report the weight instead of the sample count */
    uint64_t signals;        /* profiling signals handled */
    int drop_count;
    profile_count drops[PROFILE_MAX_COUNTS];     /* samples not stored, by reason */
    int failure_count;
    profile_count failures[PROFILE_MAX_COUNTS];  /* samples stored as failure markers, by marker */
    int stitched_count;
    profile_count stitched[PROFILE_MAX_COUNTS];  /* cstack=vm: samples stitched instead, by reason */
    uint64_t self_named;     /* cstack=vm: samples whose Java frames the walker named without AsyncGetCallTrace */
    char cstack[16];         /* stack walking mode in use */
    char warning[512];       /* what made the profile incomplete (the profiling signal taken...), or "" */
    sample_cost_summary cost[SAMPLE_COST_DEPTH_BUCKETS];  /* handler time per sample, by stack depth */
    bool stats;              /* features=stats: the text report shows the walker's diagnostics (stitched walks
                                by reason, walker-named share, cost per sample) */
} profile_meta;

typedef struct {
    char **names;
    uint8_t *types;
    uint32_t name_count, name_capacity;
    uint32_t *name_next;     /* chains names sharing one hash */
    u64map name_index;       /* hash -> first name id + 1 */

    profile_stack *stacks;
    size_t stack_count, stack_capacity;
    size_t *stack_next;
    u64map stack_index;      /* hash -> first stack index + 1 */

    uint64_t total_samples, total_weight;
    profile_meta meta;

    profile_source *sources;   /* per name id, NULL until profile_set_source is first called */
    uint32_t source_capacity;
    profile_tick *ticks;       /* NULL unless the builder recorded sample times (profile_add_tick) */
    size_t tick_count, tick_capacity;
    profile_span *spans;       /* NULL unless the builder recorded spans (profile_add_span) */
    size_t span_count, span_capacity;
} profile;

void profile_init(profile *p);
void profile_free(profile *p);

/* The id of 'name' (copied), adding it on first use. Returns UINT32_MAX when out of memory. */
uint32_t profile_intern(profile *p, const char *name, frame_type type);

/* Adds a stack (name ids, root first), merged with an identical one if present. -1 when out of memory. */
int profile_add(profile *p, const uint32_t *frames, uint32_t depth, uint64_t samples, uint64_t weight);

/* profile_add with each frame's source line (0: unknown); stacks with the same names but other lines stay
 * apart, so that the viewer formats can write a location per line. Returns the stack's index, or -1. */
long profile_add_lines(profile *p, const uint32_t *frames, const int32_t *lines, uint32_t depth, uint64_t samples,
                       uint64_t weight);

/* Sets the source file and first line of name 'id' (file copied; NULL or "" for none). -1 when out of
 * memory. The source of a name never set reads as {"", 0}. */
int profile_set_source(profile *p, uint32_t id, const char *file, int32_t start_line);
profile_source profile_source_of(const profile *p, uint32_t id);
/* Whether any name has a source file or line, or any stack lines: what the viewer formats then write. */
bool profile_has_sources(const profile *p);

/* Records one sample of stack 'stack' at time_ns. -1 when out of memory. */
int profile_add_tick(profile *p, uint32_t stack, uint64_t time_ns);
/* Sorts the ticks by time (equal times by stack index, the same order on every run). */
void profile_sort_ticks(profile *p);
/* Forgets the ticks: the timeline formats then synthesise the order. */
void profile_drop_ticks(profile *p);

/* Records a span named 'name' (copied) from start_ns to end_ns. -1 when out of memory. */
int profile_add_span(profile *p, const char *name, uint64_t start_ns, uint64_t end_ns);
/* The same for a slow traced call. */
int profile_add_call_span(profile *p, const char *name, uint64_t start_ns, uint64_t end_ns);

void profile_add_drop(profile *p, const char *reason, uint64_t count);
void profile_add_failure(profile *p, const char *marker, uint64_t count);
void profile_add_stitched(profile *p, const char *reason, uint64_t count);

/* The figure writers print for a stack: its weight with 'total', else its sample count. */
static inline uint64_t profile_value(const profile *p, const profile_stack *s) {
    return p->meta.total ? s->weight : s->samples;
}
static inline uint64_t profile_total_value(const profile *p) {
    return p->meta.total ? p->total_weight : p->total_samples;
}
/* "samples", or the weight's unit. */
static inline const char *profile_value_unit(const profile *p) {
    /* Instrumentation records calls: its samples are calls. */
    return p->meta.total || strcmp(p->meta.units, "calls") == 0 ? p->meta.units : "samples";
}

/* Stack indexes sorted by value, largest first (ties: original order). Caller frees. */
size_t *profile_sorted_stacks(const profile *p);

#endif
