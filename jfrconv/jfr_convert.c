/*
 * jfr_convert: see jfr_convert.h. Per chunk, a stack trace is named once (cached by the file offset of its
 * pool entry) and so is each (method, frame type) pair; samples then only look up, filter and add.
 */
#define _GNU_SOURCE
#include "jfr_convert.h"

#include "jfr_gc.h"
#include "jfr_span.h"

#include "class_names.h"
#include "event_kind.h"
#include "frame.h"
#include "jfr_rchunk.h"
#include "jfr_sample.h"
#include "profile_classify.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include "jfr_latency.h"

#include <string.h>
#include <strings.h>

#define TRUNCATED_MARKER "[truncated]"

void jfr_convert_options_init(jfr_convert_options *o) {
    memset(o, 0, sizeof(*o));
    o->to_ns = UINT64_MAX;
    o->tail = 0.1;
}

jfr_event_set jfr_convert_event_set(const jfr_convert_options *o) {
    if (o->nativemem) return JFR_EVENTS_NATIVEMEM;
    if (o->nativelock) return JFR_EVENTS_NATIVELOCK;
    if (o->trace) return JFR_EVENTS_TRACE;
    if (o->lock) return JFR_EVENTS_LOCK;
    if (o->live) return JFR_EVENTS_LIVE;
    if (o->alloc) return JFR_EVENTS_ALLOC;
    return o->cpu_only ? JFR_EVENTS_CPU_ONLY : JFR_EVENTS_CPU;
}

const char *jfr_convert_event_names(const jfr_convert_options *o) {
    switch (jfr_convert_event_set(o)) {
    case JFR_EVENTS_NATIVEMEM: return o->leak ? "profiler.Malloc without profiler.Free" : "profiler.Malloc";
    case JFR_EVENTS_NATIVELOCK: return "profiler.NativeLock";
    case JFR_EVENTS_TRACE: return "jdk.MethodTrace";
    case JFR_EVENTS_INTERVALS: return "jdk.MethodTrace, profiler.Span";
    case JFR_EVENTS_LOCK: return "jdk.JavaMonitorEnter, jdk.ThreadPark";
    case JFR_EVENTS_LIVE: return "profiler.LiveObject, jdk.OldObjectSample";
    case JFR_EVENTS_ALLOC: return "jdk.ObjectAllocationSample (else jdk.ObjectAllocationInNewTLAB, ...OutsideTLAB)";
    case JFR_EVENTS_CPU_ONLY: return "cpu (jdk.ExecutionSample)";
    case JFR_EVENTS_CPU: break;
    }
    return o->wall_only ? "wall (jdk.ExecutionSample, jdk.NativeMethodSample)"
                        : "jdk.ExecutionSample, jdk.NativeMethodSample";
}

const char *jfr_convert_units(const jfr_convert_options *o) {
    switch (jfr_convert_event_set(o)) {
    case JFR_EVENTS_LOCK:
    case JFR_EVENTS_TRACE:
    case JFR_EVENTS_NATIVELOCK: return "ns";
    case JFR_EVENTS_ALLOC:
    case JFR_EVENTS_LIVE:
    case JFR_EVENTS_NATIVEMEM: return "bytes";
    default: return "samples";
    }
}

const char *jfr_convert_sample_kind(const jfr_convert_options *o) {
    switch (jfr_convert_event_set(o)) {
    case JFR_EVENTS_NATIVEMEM: return "malloc";
    case JFR_EVENTS_ALLOC:
    case JFR_EVENTS_LIVE: return "allocations";
    case JFR_EVENTS_LOCK:
    case JFR_EVENTS_NATIVELOCK: return "locks";
    default: return "cpu";
    }
}

const char *jfr_convert_counts(const jfr_convert_options *o) {
    switch (jfr_convert_event_set(o)) {
    case JFR_EVENTS_LOCK: return ENGINE_LOCK_COUNTS;
    case JFR_EVENTS_LIVE: return "objects alive at the recording's end (live objects, old object samples); weight: their size in bytes";
    case JFR_EVENTS_ALLOC: return "allocation samples; weight: the events' weight in bytes";
    default: return "";
    }
}

void jfr_convert_options_free(jfr_convert_options *o) {
    for (int i = 0; i < o->include_count; i++) if (o->include[i].has_re) regfree(&o->include[i].re);
    for (int i = 0; i < o->exclude_count; i++) if (o->exclude[i].has_re) regfree(&o->exclude[i].re);
    o->include_count = o->exclude_count = 0;
}

int jfr_convert_add_filter(jfr_convert_options *o, bool include, const char *pattern, char *err, size_t errlen) {
    jfr_filter *list = include ? o->include : o->exclude;
    int *count = include ? &o->include_count : &o->exclude_count;
    const char *option = include ? "--include" : "--exclude";
    if (*count >= JFR_CONVERT_MAX_FILTERS) {
        snprintf(err, errlen, "%s: more than %d patterns", option, JFR_CONVERT_MAX_FILTERS);
        return -1;
    }
    if (!pattern[0] || strlen(pattern) >= sizeof(list->text)) {
        snprintf(err, errlen, "%s '%.40s': expected a pattern of 1 to %zu characters", option, pattern,
                 sizeof(list->text) - 1);
        return -1;
    }
    jfr_filter *f = &list[*count];
    strcpy(f->text, pattern);
    char anchored[sizeof(f->text) + 8];
    snprintf(anchored, sizeof(anchored), "^(%s)$", pattern);
    /* An agent pattern such as "*HashMap*" is no regular expression: it then matches as the agent's. */
    f->has_re = regcomp(&f->re, anchored, REG_EXTENDED | REG_NOSUB) == 0;
    (*count)++;
    return 0;
}

int jfr_convert_add_states(jfr_convert_options *o, const char *list, char *err, size_t errlen) {
    const char *p = list;
    if (!*p) {
        snprintf(err, errlen, "--state '': expected a comma list of thread states such as RUNNABLE,SLEEPING");
        return -1;
    }
    while (*p) {
        size_t n = strcspn(p, ",");
        const char *name = p;
        if (n > 6 && strncasecmp(name, "STATE_", 6) == 0) {
            name += 6;
            n -= 6;
        }
        if (n == 0 || n >= sizeof(o->states[0]) || o->state_count >= JFR_CONVERT_MAX_STATES) {
            snprintf(err, errlen, "--state '%s': expected a comma list of thread states such as RUNNABLE,SLEEPING "
                     "(at most %d)", list, JFR_CONVERT_MAX_STATES);
            return -1;
        }
        char *out = o->states[o->state_count++];
        for (size_t i = 0; i < n; i++) out[i] = (char)toupper((unsigned char)name[i]);
        out[n] = 0;
        p += n;
        if (*p == ',') p++;
    }
    return 0;
}

int jfr_convert_span(const uint8_t *data, size_t size, uint64_t *start_ns, uint64_t *end_ns, jfr_error *err) {
    *start_ns = UINT64_MAX;
    *end_ns = 0;
    for (size_t at = 0; at < size;) {
        jfr_rheader h;
        if (at > 0 && jfr_rchunk_unfinished(data, size, at)) break;
        if (jfr_rchunk_read_header(data, size, at, &h, err)) return -1;
        if (h.start_nanos < *start_ns) *start_ns = h.start_nanos;
        if (h.start_nanos + h.duration_nanos > *end_ns) *end_ns = h.start_nanos + h.duration_nanos;
        at += h.size;
    }
    return 0;
}

typedef struct {
    uint32_t *ids;
    int32_t *lines;          /* each frame's source line (0 unknown) with source_lines, else NULL */
    uint32_t n;
    uint32_t category;   /* --classify: its category frame's name id, else UINT32_MAX */
} named_stack;

/* --leak: the profiler.Malloc events of a file whose address no later profiler.Free names. A first pass
 * numbers the Malloc events in file order and keeps, per address, the number of the last one not freed
 * yet (a Free matches the latest Malloc of its address: the agent records frees of recorded allocations
 * only); the second pass keeps the Malloc events whose number is left. */
typedef struct {
    bool collecting;         /* first pass */
    uint64_t seq;            /* Malloc events met so far in this pass */
    u64map live;             /* address -> seq of its unfreed Malloc (first pass) */
    u64map leaked;           /* seq -> 1 (second pass) */
    uint64_t first_ns, last_ns;   /* the times of the nativemem events met (first pass) */
    uint64_t cutoff_ns;      /* --tail: Malloc events after this one are too young to keep (second pass) */
} leak_state;

typedef struct {
    const jfr_convert_options *o;
    leak_state *leaks;       /* NULL without --leak */
    profile *p;
    jfr_convert_stats *st;
    jfr_rchunk *ch;
    jfr_sample_reader r;
    u64map stacks;           /* stack value offset -> index into 'named' + 1 */
    named_stack *named;
    size_t named_count, named_capacity;
    u64map methods;          /* hash of (method offset, frame type) -> name id + 1 */
    u64map threads;          /* thread value offset -> name id + 1 */
    uint32_t *ids;           /* the sample being composed */
    int32_t *lines;          /* and its frames' lines (source_lines) */
    uint32_t ids_capacity;
    bool has_default_state;  /* the chunk's thread states include STATE_DEFAULT: cpu and wall tell apart */
    jfr_span_index spans;    /* the chunk's thread spans, to find the one a sample was taken in */
} converter;

static int out_of_memory(converter *cv) {
    jfr_cursor c = jfr_rchunk_cursor(cv->ch, cv->ch->start);
    return jfr_cursor_fail(&c, cv->ch->start, "out of memory");
}

static int reserve_ids(converter *cv, uint32_t need) {
    if (need <= cv->ids_capacity) return 0;
    uint32_t *grown = realloc(cv->ids, (size_t)need * sizeof(uint32_t));
    if (!grown) return out_of_memory(cv);
    cv->ids = grown;
    int32_t *lines = realloc(cv->lines, (size_t)need * sizeof(int32_t));
    if (!lines) return out_of_memory(cv);
    cv->lines = lines;
    cv->ids_capacity = need;
    return 0;
}

static bool is_java_type(const char *t) {
    return strcmp(t, "Interpreted") == 0 || strcmp(t, "JIT compiled") == 0 || strcmp(t, "Inlined") == 0 ||
           strcmp(t, "C1 compiled") == 0;
}

/* async-profiler's annotations: _[j] JIT compiled, _[i] inlined, _[0] interpreted, _[1] C1. */
static const char *java_suffix(const char *t) {
    if (strcmp(t, "Inlined") == 0) return "_[i]";
    if (strcmp(t, "Interpreted") == 0) return "_[0]";
    if (strcmp(t, "C1 compiled") == 0) return "_[1]";
    return "_[j]";
}

/* The profile's frame type of a Java JFR frame type, for the HTML page's colours. */
static frame_type java_type(const char *t) {
    if (strcmp(t, "Inlined") == 0) return FTYPE_INLINED;
    if (strcmp(t, "Interpreted") == 0) return FTYPE_INTERPRETED;
    if (strcmp(t, "C1 compiled") == 0) return FTYPE_C1;
    return strcmp(t, "JIT compiled") == 0 ? FTYPE_JIT : FTYPE_JAVA;
}

/* --norm: generated class names made stable across runs. A lambda class keeps "Outer$$Lambda" and loses
 * what the JDK appends ("$14/0x0000000800c03000" on recent JDKs, "$69+0x00007f6bfc0275c8/2011791487" on
 * 17); another hidden class loses its "/0x..." or "+0x..." address suffix ("LambdaForm$MH/0x800c04000"
 * reads "LambdaForm$MH"). */
static void normalise_class(char *cls) {
    char *lambda = strstr(cls, "$$Lambda");
    if (lambda) {
        lambda[8] = 0;
        return;
    }
    char *slash = strstr(cls, "/0x"), *plus = strstr(cls, "+0x");
    char *cut = slash && (!plus || slash < plus) ? slash : plus;
    if (cut) *cut = 0;
}

/* The name of one frame, interned. Java-typed frames, and the JDK's "Native" frames of Java native
 * methods (which have a class), are class.method; the others (our synthetic class "") the method alone. */
static uint32_t name_frame(converter *cv, const jfr_frame_info *fi, frame_type *type_out) {
    char name[2048];
    frame_type type;
    bool java = is_java_type(fi->frame_type) || (strcmp(fi->frame_type, "Native") == 0 && fi->cls[0]);
    if (java) {
        char cls[sizeof(fi->cls)];
        strcpy(cls, fi->cls);
        /* The agent spells classes in internal form. Recent JDKs write hidden classes dotted with a slash
         * before their address ("java.util.regex.Pattern$$Lambda/0x800000027"): dots before the first
         * slash are package separators. */
        for (char *c = cls; *c && *c != '/'; c++) if (*c == '.') *c = '/';
        if (cv->o->norm) normalise_class(cls);
        names_style style = cv->o->style;
        style.ann = false;
        names_java_method(name, sizeof(name) - 8, cls[0] ? cls : "[unknown_class]",
                          fi->method[0] ? fi->method : "[unknown_method]", fi->descriptor[0] ? fi->descriptor : NULL,
                          style);
        size_t used = strlen(name);
        if (cv->o->lines && fi->line >= 0) used += (size_t)snprintf(name + used, sizeof(name) - 8 - used, ":%d", fi->line);
        if (cv->o->bci && fi->bci >= 0 && used < sizeof(name) - 8)
            snprintf(name + used, sizeof(name) - 8 - used, "@%d", fi->bci);
        if (cv->o->style.ann) strcat(name, java_suffix(fi->frame_type));
        type = java_type(fi->frame_type);
    } else {
        const char *method = fi->method[0] ? fi->method : "[unknown]";
        bool kernel = strcmp(fi->frame_type, "Kernel") == 0;
        size_t n = strlen(method);
        type = kernel ? FTYPE_KERNEL : method[0] == '[' && method[n - 1] == ']' ? FTYPE_MARKER : FTYPE_NATIVE;
        snprintf(name, sizeof(name), "%s%s", method, kernel && cv->o->style.ann ? "_[k]" : "");
    }
    uint32_t id = profile_intern(cv->p, name, type);
    if (id == UINT32_MAX) out_of_memory(cv);
    *type_out = type;
    return id;
}

/* A frame's name id, its lineNumber in *line (0 when the recording has none) and its own type in *type (the
 * profile keeps one type per name). */
static uint32_t frame_id(converter *cv, const jfr_sample *s, size_t frame, int32_t *line, uint8_t *type) {
    jfr_frame_info fi;
    size_t method;
    if (jfr_sample_frame(&cv->r, s, frame, &fi, &method)) return UINT32_MAX;
    *line = fi.line > 0 ? fi.line : 0;
    /* Named per method and frame type, and per line or bytecode index when the name shows them. */
    struct { size_t method; int line, bci; char type[sizeof(fi.frame_type)]; } key;
    memset(&key, 0, sizeof(key));   /* hashed as bytes */
    key.method = method;
    key.line = cv->o->lines ? fi.line : 0;
    key.bci = cv->o->bci ? fi.bci : 0;
    strcpy(key.type, fi.frame_type);
    uint64_t h = u64map_hash_bytes(&key, sizeof(key)), cached;
    if (method && u64map_get(&cv->methods, h, &cached)) {   /* type << 32 | id + 1 */
        *type = (uint8_t)(cached >> 32);
        return (uint32_t)(cached & 0xffffffffu) - 1;
    }
    frame_type t;
    uint32_t id = name_frame(cv, &fi, &t);
    *type = (uint8_t)t;
    if (id != UINT32_MAX && method && u64map_put(&cv->methods, h, (uint64_t)t << 32 | ((uint64_t)id + 1)))
        return out_of_memory(cv), UINT32_MAX;
    return id;
}

/* The named frames of the sample's stack, root first, from the cache or named now. */
static const named_stack *stack_names(converter *cv, const jfr_sample *s) {
    uint64_t cached;
    if (s->stack && u64map_get(&cv->stacks, s->stack, &cached)) return &cv->named[cached - 1];
    bool truncated;
    const size_t *frames;
    uint32_t n;
    if (jfr_sample_stack(&cv->r, s, &truncated, &frames, &n)) return NULL;
    uint32_t *ids = malloc(((size_t)n + 1) * sizeof(uint32_t));
    int32_t *lines = calloc((size_t)n + 1, sizeof(int32_t));
    uint8_t *types = malloc((size_t)n + 1);
    if (!ids || !lines || !types) {
        free(ids);
        free(lines);
        free(types);
        return out_of_memory(cv), NULL;
    }
    uint32_t depth = 0;
    for (uint32_t i = n; i-- > 0;) {
        /* The frame offsets live in the reader's buffer, which naming a frame does not touch. */
        uint32_t id = frame_id(cv, s, frames[i], &lines[depth], &types[depth]);
        if (id == UINT32_MAX) {
            free(ids);
            free(lines);
            free(types);
            return NULL;
        }
        ids[depth++] = id;
    }
    if (depth == 0) {
        ids[depth] = profile_intern(cv->p, s->stack ? "[no_Java_frames]" : "[unknown_stack]", FTYPE_MARKER);
        types[depth++] = FTYPE_MARKER;
    } else if (truncated && strcmp(cv->p->names[ids[0]], TRUNCATED_MARKER) != 0) {
        memmove(ids + 1, ids, depth * sizeof(uint32_t));
        memmove(lines + 1, lines, depth * sizeof(int32_t));
        memmove(types + 1, types, depth);
        ids[0] = profile_intern(cv->p, TRUNCATED_MARKER, FTYPE_MARKER);
        lines[0] = 0;
        types[0] = FTYPE_MARKER;
        depth++;
    }
    uint32_t category = cv->o->classify && ids[0] != UINT32_MAX
                            ? profile_intern(cv->p, profile_classify_typed(cv->p, ids, types, depth), FTYPE_MARKER)
                            : UINT32_MAX - 1;
    free(types);
    if (!cv->o->source_lines) {
        free(lines);
        lines = NULL;
    }
    if (ids[0] == UINT32_MAX || category == UINT32_MAX) {
        free(ids);
        free(lines);
        return out_of_memory(cv), NULL;
    }
    if (cv->named_count == cv->named_capacity) {
        size_t cap = cv->named_capacity ? cv->named_capacity * 2 : 256;
        named_stack *grown = realloc(cv->named, cap * sizeof(named_stack));
        if (!grown) {
            free(ids);
            free(lines);
            return out_of_memory(cv), NULL;
        }
        cv->named = grown;
        cv->named_capacity = cap;
    }
    cv->named[cv->named_count] = (named_stack){ids, lines, depth, cv->o->classify ? category : UINT32_MAX};
    if (s->stack && u64map_put(&cv->stacks, s->stack, cv->named_count + 1)) return out_of_memory(cv), NULL;
    return &cv->named[cv->named_count++];
}

static uint32_t thread_id(converter *cv, const jfr_sample *s) {
    uint64_t cached;
    if (s->thread && u64map_get(&cv->threads, s->thread, &cached)) return (uint32_t)(cached - 1);
    char name[512], frame[600];
    uint64_t tid;
    if (jfr_sample_thread(&cv->r, s, name, sizeof(name), &tid)) return UINT32_MAX;
    names_thread(frame, sizeof(frame), name, (int)tid);
    uint32_t id = profile_intern(cv->p, frame, FTYPE_THREAD);
    if (id == UINT32_MAX || (s->thread && u64map_put(&cv->threads, s->thread, (uint64_t)id + 1)))
        return out_of_memory(cv), UINT32_MAX;
    return id;
}

/* The class leaf of an allocation or lock sample, spelled as the agent spells it (frame_names.c): the Java
 * name, "_[i]" or "_[k]" with ann. UINT32_MAX on error. */
static uint32_t class_frame_id(converter *cv, const jfr_sample *s) {
    char name[512], sig[600], java[640];
    if (jfr_sample_class(&cv->r, s, name, sizeof(name))) return UINT32_MAX;
    if (!name[0]) snprintf(name, sizeof(name), "[unknown_class]");
    /* The JDK writes "java/lang/String" (some readers' files "java.lang.String") and "[B" for arrays. */
    if (name[0] == '[' && name[1] != 'u') snprintf(sig, sizeof(sig), "%s", name);
    else snprintf(sig, sizeof(sig), "L%s;", name);
    class_names_java_name(sig, java, sizeof(java) - 8);
    if (cv->o->style.ann) strcat(java, frame_class_suffix(s->layout->class_kind));
    uint32_t id = profile_intern(cv->p, java, FTYPE_CLASS);
    if (id == UINT32_MAX) out_of_memory(cv);
    return id;
}

static bool state_wanted(const jfr_convert_options *o, const char *state) {
    if (strncmp(state, "STATE_", 6) == 0) state += 6;
    for (int i = 0; i < o->state_count; i++) {
        if (strncasecmp(state, o->states[i], strlen(o->states[i])) == 0) return true;
    }
    return false;
}

static bool filter_matches(const jfr_filter *f, const char *name) {
    return names_match(f->text, name) || (f->has_re && regexec(&f->re, name, 0, NULL, 0) == 0);
}

static bool any_match(const jfr_filter *list, int count, const profile *p, const uint32_t *ids, uint32_t n) {
    for (uint32_t i = 0; i < n; i++) {
        for (int k = 0; k < count; k++) {
            if (filter_matches(&list[k], p->names[ids[i]])) return true;
        }
    }
    return false;
}

/* --cpu / --wall: whether the sample belongs to the chosen event (jfr_convert.h). Other events
 * (allocation, lock, native memory and locks) are their own types: already chosen by the reader. */
static bool event_wanted(converter *cv, const char *state) {
    jfr_event_set set = jfr_convert_event_set(cv->o);
    if (set != JFR_EVENTS_CPU && set != JFR_EVENTS_CPU_ONLY) return true;
    bool is_cpu = cv->has_default_state ? strcmp(state, "STATE_DEFAULT") == 0 : true;
    if (cv->has_default_state) *(is_cpu ? &cv->st->cpu_seen : &cv->st->wall_seen) += 1;
    if (cv->o->cpu_only) return is_cpu;
    if (cv->o->wall_only) return strcmp(state, "STATE_DEFAULT") != 0;
    return true;
}

/* --leak: the first pass notes the event; the second tells whether to keep it. */
static int leak_pass(converter *cv, const jfr_sample *s, bool *keep) {
    leak_state *l = cv->leaks;
    uint64_t seq;
    *keep = false;
    if (l->collecting) {
        if (s->time_ns < l->first_ns) l->first_ns = s->time_ns;
        if (s->time_ns > l->last_ns) l->last_ns = s->time_ns;
    }
    if (s->free_event) {
        if (l->collecting) u64map_remove(&l->live, s->address, &seq);
        return 0;
    }
    seq = ++l->seq;
    if (l->collecting) return u64map_put(&l->live, s->address, seq) ? out_of_memory(cv) : 0;
    *keep = s->time_ns <= l->cutoff_ns && u64map_get(&l->leaked, seq, &seq);
    return 0;
}

static int add_sample(converter *cv, const jfr_sample *s) {
    const jfr_convert_options *o = cv->o;
    if (cv->leaks) {
        bool keep;
        if (leak_pass(cv, s, &keep)) return -1;
        if (!keep) return 0;
    } else if (s->free_event) {
        return 0;
    }
    cv->st->samples += s->samples;
    if (s->time_ns < o->from_ns || s->time_ns > o->to_ns) {
        cv->st->out_of_range += s->samples;
        return 0;
    }
    if (o->slow) {
        char name[256];
        uint64_t tid;
        if (jfr_sample_thread(&cv->r, s, name, sizeof(name), &tid)) return -1;
        if (!jfr_latency_contains(o->slow, tid, s->time_ns)) {
            cv->st->outside_slow += s->samples;
            return 0;
        }
    }
    char state[128];
    if (jfr_sample_state(&cv->r, s, state, sizeof(state))) return -1;
    if (!event_wanted(cv, state)) {
        cv->st->other_event += s->samples;
        return 0;
    }
    if (o->state_count && !state_wanted(o, state)) {
        cv->st->other_state += s->samples;
        return 0;
    }
    const named_stack *stack = stack_names(cv, s);
    /* Beside the stack: thread, state, category and class frames. */
    if (!stack || reserve_ids(cv, stack->n + 4)) return -1;
    uint32_t n = 0;
    memset(cv->lines, 0, (stack->n + 4) * sizeof(int32_t));   /* the frames beside the stack have no line */
    if (o->threads) {
        uint32_t id = thread_id(cv, s);
        if (id == UINT32_MAX) return -1;
        cv->ids[n++] = id;
    }
    if (o->state_frames) {
        char frame[sizeof(state) + 2];
        snprintf(frame, sizeof(frame), "[%s]", state[0] ? state : "STATE_DEFAULT");
        uint32_t id = profile_intern(cv->p, frame, FTYPE_THREAD);
        if (id == UINT32_MAX) return out_of_memory(cv);
        cv->ids[n++] = id;
    }
    if (stack->category != UINT32_MAX) cv->ids[n++] = stack->category;
    memcpy(cv->ids + n, stack->ids, stack->n * sizeof(uint32_t));
    if (stack->lines) memcpy(cv->lines + n, stack->lines, stack->n * sizeof(int32_t));
    n += stack->n;
    if (s->layout->class_kind >= 0) {
        uint32_t id = class_frame_id(cv, s);
        if (id == UINT32_MAX) return -1;
        cv->ids[n++] = id;
    }
    if ((o->include_count && !any_match(o->include, o->include_count, cv->p, cv->ids, n)) ||
        (o->exclude_count && any_match(o->exclude, o->exclude_count, cv->p, cv->ids, n))) {
        cv->st->filtered += s->samples;
        return 0;
    }
    if (o->reverse_stacks) {
        for (uint32_t i = 0, j = n - 1; i < j; i++, j--) {
            uint32_t t = cv->ids[i];
            cv->ids[i] = cv->ids[j];
            cv->ids[j] = t;
            int32_t l = cv->lines[i];
            cv->lines[i] = cv->lines[j];
            cv->lines[j] = l;
        }
    }
    cv->st->kept += s->samples;
    if (s->weight != s->samples) cv->st->weighted++;
    long at = profile_add_lines(cv->p, cv->ids, o->source_lines ? cv->lines : NULL, n, s->samples, s->weight);
    if (at < 0 || (o->sample_times && profile_add_tick(cv->p, (uint32_t)at, s->time_ns))) return out_of_memory(cv);
    if (o->sample_times && cv->spans.count) {
        char name[256];
        uint64_t tid;
        if (jfr_sample_thread(&cv->r, s, name, sizeof(name), &tid)) return -1;
        cv->p->ticks[cv->p->tick_count - 1].span = jfr_span_find(&cv->spans, cv->p, (uint32_t)tid, s->time_ns);
    }
    return 0;
}

static void converter_free(converter *cv) {
    for (size_t i = 0; i < cv->named_count; i++) {
        free(cv->named[i].ids);
        free(cv->named[i].lines);
    }
    free(cv->named);
    free(cv->ids);
    free(cv->lines);
    u64map_free(&cv->stacks);
    u64map_free(&cv->methods);
    u64map_free(&cv->threads);
    jfr_sample_reader_free(&cv->r);
}

static bool chunk_has_event(jfr_rchunk *ch, const char *event) {
    uint32_t t = jfr_meta_find_name(&ch->meta, event);
    if (t == JFR_NO_TYPE) return false;
    size_t pos = 0;
    jfr_revent ev;
    while (jfr_rchunk_next(ch, &pos, &ev) == 1) {
        if (ev.type == t) return true;
    }
    return false;
}

/* The event set that reads each event type of the chunk (-1: none), for the counts of the events another
 * choice would convert (jfr_convert_stats.unread). NULL when out of memory: then nothing is counted. */
static int8_t *event_families(const jfr_rchunk *ch) {
    static const struct {
        const char *name;
        jfr_event_set set;
    } known[] = {
        {"jdk.ExecutionSample", JFR_EVENTS_CPU},           {"jdk.NativeMethodSample", JFR_EVENTS_CPU},
        {"jdk.CPUTimeSample", JFR_EVENTS_CPU},             {"profiler.WallClockSample", JFR_EVENTS_CPU},
        {"jdk.ObjectAllocationSample", JFR_EVENTS_ALLOC},  {"jdk.ObjectAllocationInNewTLAB", JFR_EVENTS_ALLOC},
        {"jdk.ObjectAllocationOutsideTLAB", JFR_EVENTS_ALLOC},
        {"profiler.LiveObject", JFR_EVENTS_LIVE},          {"jdk.OldObjectSample", JFR_EVENTS_LIVE},
        {"jdk.JavaMonitorEnter", JFR_EVENTS_LOCK},         {"jdk.ThreadPark", JFR_EVENTS_LOCK},
        {"profiler.Malloc", JFR_EVENTS_NATIVEMEM},         {"profiler.NativeLock", JFR_EVENTS_NATIVELOCK},
        {"jdk.MethodTrace", JFR_EVENTS_TRACE},
    };
    int8_t *families = malloc(ch->meta.type_count ? ch->meta.type_count : 1);
    if (!families) return NULL;
    memset(families, -1, ch->meta.type_count);
    for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
        uint32_t t = jfr_meta_find_name(&ch->meta, known[i].name);
        if (t != JFR_NO_TYPE) families[t] = (int8_t)known[i].set;
    }
    return families;
}

const char *jfr_convert_set_flag(jfr_event_set set) {
    switch (set) {
    case JFR_EVENTS_ALLOC: return "--alloc";
    case JFR_EVENTS_LIVE: return "--live";
    case JFR_EVENTS_LOCK: return "--lock";
    case JFR_EVENTS_NATIVEMEM: return "--nativemem";
    case JFR_EVENTS_NATIVELOCK: return "--nativelock";
    case JFR_EVENTS_TRACE: return "--trace";
    default: return "";
    }
}

static int convert_chunk(const jfr_convert_options *o, jfr_rchunk *ch, profile *p, jfr_convert_stats *st,
                         leak_state *leaks) {
    converter cv = {.o = o, .leaks = leaks, .p = p, .st = st, .ch = ch};
    u64map_init(&cv.stacks);
    u64map_init(&cv.methods);
    u64map_init(&cv.threads);
    int rc = 0;
    /* The application's spans first: a span's event follows the samples taken in it. */
    size_t first_span = p->span_count;
    if (o->sample_times && (jfr_span_read(ch, p, o->from_ns, o->to_ns) < 0 ||
                            jfr_span_index_build(&cv.spans, p, first_span)))
        rc = -1;
    jfr_event_set set = jfr_convert_event_set(o);
    if (rc == 0 && jfr_sample_reader_init(&cv.r, ch, set) > 0) {
        /* The JDK's TLAB events and its allocation samples describe the same allocations: a chunk with
         * allocation samples is read through them alone. */
        if (set == JFR_EVENTS_ALLOC && chunk_has_event(ch, "jdk.ObjectAllocationSample"))
            jfr_sample_reader_only(&cv.r, "jdk.ObjectAllocationSample");
        cv.has_default_state = jfr_sample_chunk_has_state(&cv.r, "STATE_DEFAULT");
        int8_t *families = event_families(ch);
        jfr_event_set chosen = set == JFR_EVENTS_CPU_ONLY ? JFR_EVENTS_CPU : set;
        size_t pos = 0;
        jfr_revent ev;
        jfr_sample s;
        while (rc == 0 && (rc = jfr_rchunk_next(ch, &pos, &ev)) == 1) {
            st->events++;
            rc = jfr_sample_read(&cv.r, &ev, &s);
            if (rc == 1) rc = add_sample(&cv, &s);
            else if (rc == 0 && families && ev.type < ch->meta.type_count && families[ev.type] >= 0 &&
                     families[ev.type] != (int8_t)chosen)
                st->unread[families[ev.type]]++;
        }
        free(families);
    }
    /* The timeline formats show the recording's garbage collections beside the samples. */
    if (rc >= 0 && o->sample_times && jfr_gc_spans(ch, p, o->from_ns, o->to_ns) < 0) rc = -1;
    if (rc >= 0 && o->sample_times && jfr_latency_call_spans(ch, p, o->from_ns, o->to_ns) < 0) rc = -1;
    jfr_span_index_free(&cv.spans);
    converter_free(&cv);
    return rc < 0 ? -1 : 0;
}

/* Every finished chunk of one file through convert_chunk. */
static int convert_file(const jfr_convert_options *o, const uint8_t *data, size_t size, profile *p,
                        jfr_convert_stats *stats, jfr_error *err, leak_state *leaks) {
    stats->unfinished_at = stats->unfinished_bytes = 0;
    for (size_t at = 0; at < size;) {
        if (at > 0 && jfr_rchunk_unfinished(data, size, at)) {
            stats->unfinished_at = at;
            stats->unfinished_bytes = size - at;
            break;
        }
        jfr_rchunk ch;
        int rc = jfr_rchunk_open(&ch, data, size, at, err);
        if (rc == 0) rc = convert_chunk(o, &ch, p, stats, leaks);
        size_t next = ch.end;
        jfr_rchunk_close(&ch);
        if (rc) {
            char inner[sizeof(err->message)];
            memcpy(inner, err->message, sizeof(inner));
            snprintf(err->message, sizeof(err->message), "chunk %llu (at offset %zu): %.*s",
                     (unsigned long long)stats->chunks + 1, at, (int)sizeof(inner) - 64, inner);
            return -1;
        }
        stats->chunks++;
        at = next;
    }
    return 0;
}

/* --leak: a first pass over the file finds the unfreed allocations (into scratch statistics: nothing is
 * added), the second adds them. */
static int convert_leaks(const jfr_convert_options *o, const uint8_t *data, size_t size, profile *p,
                         jfr_convert_stats *stats, jfr_error *err) {
    leak_state leaks = {.collecting = true, .first_ns = UINT64_MAX};
    u64map_init(&leaks.live);
    u64map_init(&leaks.leaked);
    jfr_convert_stats scratch = *stats;
    int rc = convert_file(o, data, size, p, &scratch, err, &leaks);
    for (size_t i = 0; rc == 0 && i < leaks.live.capacity; i++) {
        if (leaks.live.keys[i] && u64map_put(&leaks.leaked, leaks.live.values[i], 1)) rc = -1;
    }
    leaks.collecting = false;
    leaks.seq = 0;
    /* --tail: the last 'tail' of the span from the first nativemem event to the last is left out */
    leaks.cutoff_ns = leaks.first_ns > leaks.last_ns
                          ? UINT64_MAX
                          : leaks.last_ns - (uint64_t)((double)(leaks.last_ns - leaks.first_ns) * o->tail);
    if (rc == 0) rc = convert_file(o, data, size, p, stats, err, &leaks);
    u64map_free(&leaks.live);
    u64map_free(&leaks.leaked);
    return rc;
}

int jfr_convert(const jfr_convert_options *o, const uint8_t *data, size_t size, profile *p,
                jfr_convert_stats *stats, jfr_error *err) {
    if (size == 0) {
        snprintf(err->message, sizeof(err->message), "empty file (a JFR recording starts with 'FLR')");
        err->failed = true;
        return -1;
    }
    jfr_convert_options with_slow = *o;
    jfr_latency slow = {0};
    if (o->latency) {
        if (jfr_latency_collect(data, size, o->latency_ns, o->latency_below_ns, &slow, err)) {
            jfr_latency_free(&slow);
            return -1;
        }
        if (!slow.events) {
            snprintf(err->message, sizeof(err->message), "--latency: the recording has no jdk.MethodTrace or "
                     "profiler.Span events (record with trace=pkg.Class.method)");
            err->failed = true;
            jfr_latency_free(&slow);
            return -1;
        }
        stats->slow_calls += slow.n;
        with_slow.slow = &slow;
        o = &with_slow;
    }
    int rc = o->nativemem && o->leak ? convert_leaks(o, data, size, p, stats, err)
                                     : convert_file(o, data, size, p, stats, err, NULL);
    jfr_latency_free(&slow);
    /* Events are written per thread buffer, not in time order. */
    profile_sort_ticks(p);
    return rc;
}
