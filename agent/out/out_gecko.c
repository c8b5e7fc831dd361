#include "out_gecko.h"

#include "child_index.h"
#include "completeness.h"
#include "json_out.h"
#include "profile_threads.h"
#include "profile_timeline.h"
#include "u64map.h"

#include <stdlib.h>
#include <string.h>

/* meta.categories, indexed by the frameTable's category column. */
enum { CAT_OTHER, CAT_JAVA, CAT_NATIVE, CAT_KERNEL, CAT_LIBPROF, CAT_GC };

static int category_of(frame_type t) {
    if (frame_type_is_java(t)) return CAT_JAVA;
    switch (t) {
    case FTYPE_NATIVE: return CAT_NATIVE;
    case FTYPE_KERNEL: return CAT_KERNEL;
    case FTYPE_MARKER: return CAT_LIBPROF;
    default: return CAT_OTHER;
    }
}

/* A frame's location, "name (where)", as the Firefox Profiler reads it: "sym (in lib)" names a native
 * symbol's library (symbols named "lib`symbol"), "name (File.java:LINE)" a Java method's source; a frame
 * with neither is "name (in java|native|kernel|libprof)", its origin shown as the Firefox Profiler shows a
 * library. speedscope's Firefox importer needs the "(where)" part: it drops frames without one. */
static void write_location(const profile *p, uint32_t name, FILE *out) {
    const char *n = p->names[name], *tick = strchr(n, '`');
    char text[2300];
    profile_source src = profile_source_of(p, name);
    if (p->types[name] == FTYPE_NATIVE && tick)
        snprintf(text, sizeof(text), "%s (in %.*s)", tick + 1, (int)(tick - n), n);
    else if (src.file[0] && src.start_line > 0)
        snprintf(text, sizeof(text), "%s (%.1024s:%d)", n, src.file, src.start_line);
    else if (src.file[0])
        snprintf(text, sizeof(text), "%s (%.1024s)", n, src.file);
    else
        snprintf(text, sizeof(text), "%s (in %s)", n,
                 frame_type_is_java((frame_type)p->types[name]) ? "java" : p->types[name] == FTYPE_NATIVE ? "native"
                 : p->types[name] == FTYPE_KERNEL ? "kernel" : "libprof");
    json_out_string(out, text);
}

typedef struct {
    u64map frames;     /* (name id, line) -> frame index + 1 */
    u64map stacks;     /* child_index: (prefix, frame) -> stack index */
    uint32_t *frame_names;
    int32_t *frame_lines;   /* the frame's source line, 0 unknown */
    uint32_t frame_count, frame_capacity;
    uint32_t (*stack_rows)[2];   /* prefix (UINT32_MAX: none), frame */
    uint32_t stack_count, stack_capacity;
    uint32_t *leaf;    /* each stack's (profile) leaf stack index */
} thread_tables;

/* A frame per name and source line (Gecko's frames are code addresses; a line is the nearest we have). */
static uint32_t frame_index(thread_tables *t, uint32_t name, int32_t line) {
    uint64_t found, key = ((uint64_t)name + 1) << 32 | (uint32_t)(line > 0 ? line : 0);
    if (u64map_get(&t->frames, key, &found)) return (uint32_t)(found - 1);
    if (t->frame_count == t->frame_capacity) {
        uint32_t cap = t->frame_capacity ? t->frame_capacity * 2 : 256;
        uint32_t *names = realloc(t->frame_names, cap * sizeof(uint32_t));
        if (!names) return UINT32_MAX;
        t->frame_names = names;
        int32_t *lines = realloc(t->frame_lines, cap * sizeof(int32_t));
        if (!lines) return UINT32_MAX;
        t->frame_lines = lines;
        t->frame_capacity = cap;
    }
    t->frame_names[t->frame_count] = name;
    t->frame_lines[t->frame_count] = line > 0 ? line : 0;
    return u64map_put(&t->frames, key, t->frame_count + 1ULL) ? UINT32_MAX : t->frame_count++;
}

static uint32_t stack_index(thread_tables *t, uint32_t prefix, uint32_t frame) {
    bool added;
    uint32_t id = child_index_get(&t->stacks, prefix, frame, t->stack_count, &added);
    if (!added) return id;
    if (t->stack_count == t->stack_capacity) {
        uint32_t cap = t->stack_capacity ? t->stack_capacity * 2 : 256;
        void *grown = realloc(t->stack_rows, cap * sizeof(*t->stack_rows));
        if (!grown) return UINT32_MAX;
        t->stack_rows = grown;
        t->stack_capacity = cap;
    }
    t->stack_rows[id][0] = prefix;
    t->stack_rows[id][1] = frame;
    return t->stack_count++;
}

static int build_tables(const profile *p, const profile_threads *th, uint32_t group, thread_tables *t) {
    t->leaf = malloc((p->stack_count ? p->stack_count : 1) * sizeof(uint32_t));
    if (!t->leaf) return -1;
    for (size_t i = 0; i < p->stack_count; i++) {
        if (th->of_stack[i] != group) continue;
        const profile_stack *s = &p->stacks[i];
        uint32_t stack = UINT32_MAX;
        for (uint32_t f = profile_threads_first_frame(p, s); f < s->depth; f++) {
            uint32_t frame = frame_index(t, s->frames[f], s->lines ? s->lines[f] : 0);
            if (frame == UINT32_MAX || (stack = stack_index(t, stack, frame)) == UINT32_MAX) return -1;
        }
        t->leaf[i] = stack;
    }
    return 0;
}

static void free_tables(thread_tables *t) {
    u64map_free(&t->frames);
    u64map_free(&t->stacks);
    free(t->frame_names);
    free(t->frame_lines);
    free(t->stack_rows);
    free(t->leaf);
}

/* The recorded timeline's origin (meta.startTime): its first sample, or an earlier span (a garbage
 * collection before the first sample), so that every time written is positive. */
static uint64_t recorded_origin(const profile *p) {
    uint64_t origin = p->ticks[0].time_ns;
    for (size_t i = 0; i < p->span_count; i++) {
        if (p->spans[i].start_ns < origin) origin = p->spans[i].start_ns;
    }
    return origin;
}

static void write_markers(const profile *p, bool with_markers, uint32_t first_string, FILE *out) {
    fputs("\"markers\":{\"schema\":{\"name\":0,\"startTime\":1,\"endTime\":2,\"phase\":3,\"category\":4,\"data\":5},"
          "\"data\":[", out);
    uint32_t string = first_string;
    bool first = true;
    for (int i = 0; with_markers && i < p->meta.drop_count; i++) {
        if (!p->meta.drops[i].count) continue;
        fprintf(out, "%s[%u,0,null,0,%d,null]", first ? "" : ",", string++, CAT_LIBPROF);
        first = false;
    }
    for (int i = 0; with_markers && i < p->meta.failure_count; i++) {
        if (!p->meta.failures[i].count) continue;
        fprintf(out, "%s[%u,0,null,0,%d,null]", first ? "" : ",", string++, CAT_LIBPROF);
        first = false;
    }
    /* The recording's garbage collections and slow traced calls: interval markers (phase 1) in the samples'
     * time base. */
    uint64_t origin = with_markers && p->tick_count ? recorded_origin(p) : 0;   /* once: it reads every span */
    for (size_t i = 0; with_markers && p->tick_count && i < p->span_count; i++) {
        bool call = p->spans[i].slow_call;
        fprintf(out, "%s[%u,%.6f,%.6f,1,%d,{\"type\":\"%s\"}]", first ? "" : ",", string++,
                (p->spans[i].start_ns - origin) / 1e6, (p->spans[i].end_ns - origin) / 1e6, call ? CAT_JAVA : CAT_GC,
                call ? "MethodTrace" : "GC");
        first = false;
    }
    fputs("]}", out);
}

static void write_marker_strings(const profile *p, FILE *out) {
    char text[512];
    for (int i = 0; i < p->meta.drop_count; i++) {
        if (!p->meta.drops[i].count) continue;
        snprintf(text, sizeof(text), "libprof: %llu samples dropped (%s)", (unsigned long long)p->meta.drops[i].count,
                 p->meta.drops[i].name);
        fputc(',', out);
        json_out_string(out, text);
    }
    for (int i = 0; i < p->meta.failure_count; i++) {
        if (!p->meta.failures[i].count) continue;
        snprintf(text, sizeof(text), "libprof: %llu failed stack walks (%s)",
                 (unsigned long long)p->meta.failures[i].count, p->meta.failures[i].name);
        fputc(',', out);
        json_out_string(out, text);
    }
    for (size_t i = 0; p->tick_count && i < p->span_count; i++) {
        fputc(',', out);
        json_out_string(out, p->spans[i].name);
    }
}

/* The samples in the synthesised order (profile_timeline.h), from time 0. */
static void write_synthesised_samples(const profile *p, const profile_threads *th, uint32_t group,
                                      const thread_tables *t, FILE *out) {
    uint64_t now_ns = 0;
    for (size_t i = 0; i < p->stack_count; i++) {
        if (th->of_stack[i] != group) continue;
        uint64_t ns = profile_timeline_sample_ns(p, &p->stacks[i]);
        for (uint64_t k = 0; k < p->stacks[i].samples; k++) {
            fprintf(out, "[%u,%.6f,0,%llu],", t->leaf[i], now_ns / 1e6, (unsigned long long)ns);
            now_ns += ns;
        }
    }
    fprintf(out, "[null,%.6f,0,0]]}", now_ns / 1e6);
}

/* The thread's samples at their recorded times (p->ticks, sorted), in ms since recorded_origin; a
 * stack-less sample one sample length after the last closes the thread, on the first thread (which holds
 * the span markers) not before the last span ends: viewers show a thread's markers within its samples. */
static void write_recorded_samples(const profile *p, const profile_threads *th, uint32_t group,
                                   const thread_tables *t, FILE *out) {
    uint64_t start = recorded_origin(p), last = p->ticks[0].time_ns, ns = 0;
    for (size_t i = 0; i < p->tick_count; i++) {
        uint32_t stack = p->ticks[i].stack;
        if (th->of_stack[stack] != group) continue;
        ns = profile_timeline_sample_ns(p, &p->stacks[stack]);
        last = p->ticks[i].time_ns;
        fprintf(out, "[%u,%.6f,0,%llu],", t->leaf[stack], (last - start) / 1e6, (unsigned long long)ns);
    }
    uint64_t end = last + ns;
    for (size_t i = 0; group == 0 && i < p->span_count; i++) {
        if (p->spans[i].end_ns > end) end = p->spans[i].end_ns;
    }
    fprintf(out, "[null,%.6f,0,0]]}", (end - start) / 1e6);
}

static void write_samples(const profile *p, const profile_threads *th, uint32_t group, const thread_tables *t,
                          FILE *out) {
    fputs("\"samples\":{\"schema\":{\"stack\":0,\"time\":1,\"eventDelay\":2,\"threadCPUDelta\":3},\"data\":[", out);
    (p->tick_count ? write_recorded_samples : write_synthesised_samples)(p, th, group, t, out);
}

static int write_thread(const profile *p, const profile_threads *th, uint32_t group, FILE *out) {
    thread_tables t = {0};
    u64map_init(&t.frames);
    u64map_init(&t.stacks);
    if (build_tables(p, th, group, &t)) {
        free_tables(&t);
        return -1;
    }
    fputs("{\"name\":", out);
    json_out_string(out, profile_threads_name(p, th, group));
    fprintf(out, ",\"processType\":\"default\",\"processName\":\"java\",\"pid\":\"0\",\"tid\":%u,"
            "\"registerTime\":0,\"unregisterTime\":null,\n", group + 1);
    write_samples(p, th, group, &t, out);
    fputs(",\n", out);
    write_markers(p, group == 0, t.frame_count ? t.frame_count : 1, out);   /* 1: after the "" of no frames */
    fputs(",\n\"stackTable\":{\"schema\":{\"prefix\":0,\"frame\":1},\"data\":[", out);
    for (uint32_t s = 0; s < t.stack_count; s++) {
        if (t.stack_rows[s][0] == UINT32_MAX) fprintf(out, "%s[null,%u]", s ? "," : "", t.stack_rows[s][1]);
        else fprintf(out, "%s[%u,%u]", s ? "," : "", t.stack_rows[s][0], t.stack_rows[s][1]);
    }
    fputs("]},\n\"frameTable\":{\"schema\":{\"location\":0,\"relevantForJS\":1,\"innerWindowID\":2,\"implementation\":3,"
          "\"line\":4,\"column\":5,\"category\":6,\"subcategory\":7},\"data\":[", out);
    for (uint32_t f = 0; f < t.frame_count; f++) {
        fprintf(out, "%s[%u,false,null,null,", f ? "," : "", f);
        if (t.frame_lines[f] > 0) fprintf(out, "%d", t.frame_lines[f]);
        else fputs("null", out);
        fprintf(out, ",null,%d,0]", category_of((frame_type)p->types[t.frame_names[f]]));
    }
    fputs("]},\n\"stringTable\":[", out);
    for (uint32_t f = 0; f < t.frame_count; f++) {
        if (f) fputc(',', out);
        write_location(p, t.frame_names[f], out);
    }
    if (group == 0) {
        if (!t.frame_count) fputs("\"\"", out);   /* keeps the marker strings' indexes after the frames' */
        write_marker_strings(p, out);
    }
    fputs("]}", out);
    free_tables(&t);
    return 0;
}

int out_gecko_write(const profile *p, FILE *out) {
    profile_threads th;
    if (profile_threads_build(p, &th)) return -1;
    char completeness[1024];
    completeness_summary(p, completeness, sizeof(completeness));
    double interval_ms = (p->meta.interval_ns && (!p->meta.units[0] || strcmp(p->meta.units, "ns") == 0)
                          ? p->meta.interval_ns : 1000000) / 1e6;
    /* meta.startTime: ms since the epoch of the first recorded sample; 0 for a synthesised order. */
    fprintf(out, "{\"meta\":{\"version\":27,\"startTime\":%.6f,\"shutdownTime\":null,\"interval\":%g,"
            "\"processType\":0,\"product\":", p->tick_count ? recorded_origin(p) / 1e6 : 0.0, interval_ms);
    json_out_string(out, p->meta.title[0] ? p->meta.title : "libprof");
    fputs(",\"stackwalk\":1,\"debug\":0,\"gcpoison\":0,\"asyncstack\":0,\"presymbolicated\":true,\n\"categories\":["
          "{\"name\":\"Other\",\"color\":\"grey\",\"subcategories\":[\"Other\"]},"
          "{\"name\":\"Java\",\"color\":\"yellow\",\"subcategories\":[\"Other\"]},"
          "{\"name\":\"Native\",\"color\":\"blue\",\"subcategories\":[\"Other\"]},"
          "{\"name\":\"Kernel\",\"color\":\"orange\",\"subcategories\":[\"Other\"]},"
          "{\"name\":\"libprof\",\"color\":\"red\",\"subcategories\":[\"Other\"]},"
          "{\"name\":\"GC / CC\",\"color\":\"orange\",\"subcategories\":[\"Other\"]}],\n"
          "\"markerSchema\":[],\"sampleUnits\":{\"time\":\"ms\",\"eventDelay\":\"ms\",\"threadCPUDelta\":\"ns\"},"
          "\"libprof\":{\"completeness\":", out);
    json_out_string(out, completeness);
    fprintf(out, ",\"dropped\":%llu,\"failed\":%llu,\"synthesisedOrder\":%s}},\n\"libs\":[],\"pausedRanges\":[],"
            "\"processes\":[],\n\"threads\":[", (unsigned long long)completeness_dropped(p),
            (unsigned long long)completeness_failed(p), p->tick_count ? "false" : "true");
    int rc = 0;
    for (uint32_t g = 0; g < th.count && rc == 0; g++) {
        if (g) fputs(",\n", out);
        rc = write_thread(p, &th, g, out);
    }
    fputs("]}\n", out);
    profile_threads_free(&th);
    return rc || ferror(out) ? -1 : 0;
}
