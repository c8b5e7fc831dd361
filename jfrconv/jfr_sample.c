/*
 * jfr_sample: see jfr_sample.h. Structs are read by field name through 'pick', which walks the
 * struct's fields once up to the last one asked for.
 */
#include "jfr_sample.h"

#include "frame.h"
#include "jfr_value.h"

#include <stdio.h>

#include <stdlib.h>
#include <string.h>

#define MAX_PICK 8

typedef struct {
    size_t at[MAX_PICK];                 /* value offset of each named field (0: absent or null) */
    const jfr_field *field[MAX_PICK];    /* NULL when the type has no such field */
} picked;

/* Offsets of the fields 'names' of the inline struct of type t at 'at'. */
static int pick(jfr_sample_reader *r, size_t at, uint32_t t, const char *const *names, int n, picked *out) {
    memset(out, 0, sizeof(*out));
    if (!at || t == JFR_NO_TYPE) return 0;
    const jfr_meta *m = &r->ch->meta;
    int index[MAX_PICK], last = -1;
    for (int i = 0; i < n; i++) {
        index[i] = jfr_meta_field(m, t, names[i]);
        if (index[i] > last) last = index[i];
    }
    if (last < 0) return 0;
    if ((uint32_t)last + 1 > r->scratch_capacity) {
        size_t *grown = realloc(r->scratch, ((size_t)last + 1) * sizeof(size_t));
        if (!grown) {
            jfr_cursor c = jfr_rchunk_cursor(r->ch, at);
            return jfr_cursor_fail(&c, at, "out of memory");
        }
        r->scratch = grown;
        r->scratch_capacity = (uint32_t)last + 1;
    }
    if (jfr_value_fields(r->ch, at, t, r->scratch, (uint32_t)last + 1)) return -1;
    for (int i = 0; i < n; i++) {
        if (index[i] < 0) continue;
        out->at[i] = r->scratch[index[i]];
        out->field[i] = &m->types[t].fields[index[i]];
    }
    return 0;
}

/* weight_field: the field that weighs the event ("weight" for the JDK's samples, "size" for malloc,
 * "duration": the time waited; NULL: none, each event weighs 1); cls: its class field ("object.type": the
 * field 'type' of the struct in 'object'), NULL without; class_kind: the class leaf's kind, or -1. */
static void add_layout(jfr_sample_reader *r, const char *event, const char *weight_field, const char *cls,
                       int class_kind) {
    const jfr_meta *m = &r->ch->meta;
    uint32_t t = jfr_meta_find_name(m, event);
    int stack = t == JFR_NO_TYPE ? -1 : jfr_meta_field(m, t, "stackTrace");
    if (t == JFR_NO_TYPE || (stack < 0 && !r->stackless) || (stack >= 0 && m->types[t].fields[stack].array)) return;
    jfr_sample_layout *l = &r->layouts[r->layout_count++];
    l->type = t;
    l->stack = stack;
    l->time = jfr_meta_field(m, t, "startTime");
    l->thread = jfr_meta_field(m, t, "sampledThread");
    if (l->thread < 0) l->thread = jfr_meta_field(m, t, "eventThread");
    l->state = jfr_meta_field(m, t, "state");
    l->weight = weight_field ? jfr_meta_field(m, t, weight_field) : -1;
    l->weight_in_ticks = weight_field && strcmp(weight_field, "duration") == 0;
    l->address = jfr_meta_field(m, t, "address");
    l->count = jfr_meta_field(m, t, "samples");
    l->free_event = strcmp(event, "profiler.Free") == 0;
    l->cls = l->cls_inner = -1;
    l->class_kind = class_kind;
    if (cls) {
        const char *dot = strchr(cls, '.');
        char outer[64];
        snprintf(outer, sizeof(outer), "%.*s", dot ? (int)(dot - cls) : (int)strlen(cls), cls);
        l->cls = jfr_meta_field(m, t, outer);
        if (dot && l->cls >= 0) l->cls_inner = jfr_meta_field(m, m->types[t].fields[l->cls].type, dot + 1);
        if (dot && l->cls_inner < 0) l->cls = -1;
    }
}

int jfr_sample_reader_init(jfr_sample_reader *r, jfr_rchunk *ch, jfr_event_set set) {
    memset(r, 0, sizeof(*r));
    r->ch = ch;
    switch (set) {
    case JFR_EVENTS_ALLOC:
        add_layout(r, "jdk.ObjectAllocationSample", "weight", "objectClass", FRAME_CLASS_ALLOC);
        add_layout(r, "jdk.ObjectAllocationInNewTLAB", "tlabSize", "objectClass", FRAME_CLASS_ALLOC);
        add_layout(r, "jdk.ObjectAllocationOutsideTLAB", "allocationSize", "objectClass", FRAME_CLASS_ALLOC_OUTSIDE_TLAB);
        break;
    case JFR_EVENTS_LIVE:
        /* async-profiler's and ours (alloc,live), then the JDK's old object samples. */
        add_layout(r, "profiler.LiveObject", "allocationSize", "objectClass", FRAME_CLASS_ALLOC);
        add_layout(r, "jdk.OldObjectSample", "objectSize", "object.type", FRAME_CLASS_ALLOC);
        break;
    case JFR_EVENTS_LOCK:
        add_layout(r, "jdk.JavaMonitorEnter", "duration", "monitorClass", FRAME_CLASS_MONITOR);
        add_layout(r, "jdk.ThreadPark", "duration", "parkedClass", FRAME_CLASS_PARK);
        break;
    case JFR_EVENTS_NATIVEMEM:
        add_layout(r, "profiler.Malloc", "size", NULL, -1);
        add_layout(r, "profiler.Free", NULL, NULL, -1);
        break;
    case JFR_EVENTS_NATIVELOCK: add_layout(r, "profiler.NativeLock", "duration", NULL, -1); break;
    case JFR_EVENTS_TRACE: add_layout(r, "jdk.MethodTrace", "duration", NULL, -1); break;
    case JFR_EVENTS_INTERVALS:
        r->stackless = true;
        add_layout(r, "jdk.MethodTrace", "duration", NULL, -1);
        add_layout(r, "profiler.Span", "duration", NULL, -1);
        break;
    case JFR_EVENTS_CPU:
    case JFR_EVENTS_CPU_ONLY:
        add_layout(r, "jdk.ExecutionSample", "weight", NULL, -1);
        if (set == JFR_EVENTS_CPU) add_layout(r, "jdk.NativeMethodSample", "weight", NULL, -1);
        /* JDK 25's CPU-time sampler (JEP 509, Linux): a sample per CPU-time period of each thread. */
        add_layout(r, "jdk.CPUTimeSample", NULL, NULL, -1);
        /* async-profiler's wall samples, batched by default: one event for 'samples' in a row of a thread in
         * one state with one stack (its --nobatch writes jdk.ExecutionSample, as we do). */
        if (set == JFR_EVENTS_CPU) add_layout(r, "profiler.WallClockSample", NULL, NULL, -1);
        break;
    }
    return r->layout_count;
}

bool jfr_sample_reader_only(jfr_sample_reader *r, const char *event) {
    for (int i = 0; i < r->layout_count; i++) {
        if (strcmp(r->ch->meta.types[r->layouts[i].type].name, event) == 0) {
            r->layouts[0] = r->layouts[i];
            r->layout_count = 1;
            return true;
        }
    }
    return false;
}

void jfr_sample_reader_free(jfr_sample_reader *r) {
    free(r->scratch);
    free(r->frames);
    memset(r, 0, sizeof(*r));
}

/* The field at index i of the event (NULL for -1) and its value offset, dereferenced when pooled. */
static size_t event_field(jfr_sample_reader *r, const jfr_sample_layout *l, int i, const jfr_field **f) {
    *f = i >= 0 ? &r->ch->meta.types[l->type].fields[i] : NULL;
    return i >= 0 ? r->scratch[i] : 0;
}

int jfr_sample_read(jfr_sample_reader *r, const jfr_revent *ev, jfr_sample *s) {
    const jfr_sample_layout *l = NULL;
    for (int i = 0; i < r->layout_count; i++) {
        if (r->layouts[i].type == ev->type) l = &r->layouts[i];
    }
    if (!l) return 0;
    const jfr_type *type = &r->ch->meta.types[l->type];
    uint32_t n = type->field_count;
    if (n > r->scratch_capacity) {
        size_t *grown = realloc(r->scratch, n * sizeof(size_t));
        if (!grown) {
            jfr_cursor c = jfr_rchunk_cursor(r->ch, ev->start);
            return jfr_cursor_fail(&c, ev->start, "out of memory");
        }
        r->scratch = grown;
        r->scratch_capacity = n;
    }
    /* The event's own bytes bound its fields: a field running past the event's size is an error. */
    jfr_rchunk bounded = *r->ch;
    bounded.end = ev->end;
    if (jfr_value_fields(&bounded, ev->payload, l->type, r->scratch, n)) return -1;
    r->ch->budget = bounded.budget;
    jfr_cursor c = jfr_rchunk_cursor(&bounded, r->scratch[n - 1]);
    if (jfr_value_skip_field(&bounded, &c, &type->fields[n - 1]) || c.pos > ev->end) return -1;
    r->ch->budget = bounded.budget;
    memset(s, 0, sizeof(*s));
    const jfr_field *f;
    size_t at = event_field(r, l, l->time, &f);
    s->time_ns = jfr_rchunk_ticks_to_ns(r->ch, f ? jfr_value_number(r->ch, at, f) : r->ch->header.start_ticks);
    at = event_field(r, l, l->count, &f);
    s->samples = f && !f->pooled ? jfr_value_number(r->ch, at, f) : 1;
    if (!s->samples) s->samples = 1;
    at = event_field(r, l, l->weight, &f);
    s->weight = f && !f->pooled ? jfr_value_number(r->ch, at, f) : s->samples;
    if (f && l->weight_in_ticks && !f->pooled) {
        /* ticks to ns: a duration, not a point in time */
        uint64_t tps = r->ch->header.ticks_per_second;
        if (tps && tps != 1000000000ULL) s->weight = (uint64_t)((unsigned __int128)s->weight * 1000000000U / tps);
    }
    s->layout = l;
    at = event_field(r, l, l->cls, &s->cls_field);
    s->cls = s->cls_field ? jfr_value_deref(r->ch, at, s->cls_field) : 0;
    at = event_field(r, l, l->thread, &s->thread_field);
    s->thread = s->thread_field ? jfr_value_deref(r->ch, at, s->thread_field) : 0;
    at = event_field(r, l, l->stack, &s->stack_field);
    s->stack = s->stack_field ? jfr_value_deref(r->ch, at, s->stack_field) : 0;
    s->state = event_field(r, l, l->state, &s->state_field);
    s->native_event = strcmp(type->name, "jdk.NativeMethodSample") == 0;
    s->free_event = l->free_event;
    at = event_field(r, l, l->address, &f);
    s->address = f && !f->pooled ? jfr_value_number(r->ch, at, f) : 0;
    return r->ch->error->failed ? -1 : 1;
}

int jfr_sample_stack(jfr_sample_reader *r, const jfr_sample *s, bool *truncated, const size_t **frames,
                     uint32_t *n) {
    static const char *const names[] = {"truncated", "frames"};
    picked p;
    *n = 0;
    *truncated = false;
    *frames = r->frames;
    if (!s->stack || pick(r, s->stack, s->stack_field->type, names, 2, &p)) return r->ch->error->failed ? -1 : 0;
    if (p.field[0]) *truncated = jfr_value_number(r->ch, p.at[0], p.field[0]) != 0;
    const jfr_field *f = p.field[1];
    if (!f || !f->array || !p.at[1]) return 0;
    jfr_cursor c = jfr_rchunk_cursor(r->ch, p.at[1]);
    uint64_t count = jfr_cursor_count(&c, "stack frame count");
    if (count > r->frame_capacity) {
        size_t *grown = realloc(r->frames, (size_t)count * sizeof(size_t));
        if (!grown) return jfr_cursor_fail(&c, p.at[1], "out of memory for %llu frames", (unsigned long long)count);
        r->frames = grown;
        r->frame_capacity = (uint32_t)count;
    }
    *frames = r->frames;
    jfr_field element = *f;
    element.array = false;
    for (uint64_t i = 0; i < count && jfr_cursor_ok(&c); i++) {
        r->frames[i] = jfr_value_deref(r->ch, c.pos, f);
        jfr_value_skip_field(r->ch, &c, &element);
        *n = (uint32_t)(i + 1);
    }
    return jfr_cursor_ok(&c) ? 0 : -1;
}

int jfr_sample_frame(jfr_sample_reader *r, const jfr_sample *s, size_t frame, jfr_frame_info *out, size_t *method) {
    static const char *const frame_fields[] = {"method", "type", "lineNumber", "bytecodeIndex"};
    static const char *const method_fields[] = {"type", "name", "descriptor", "hidden"};
    static const char *const class_fields[] = {"name"};
    memset(out, 0, sizeof(*out));
    out->line = out->bci = -1;
    *method = 0;
    const jfr_field *frames = jfr_meta_field(&r->ch->meta, s->stack_field->type, "frames") >= 0
        ? &r->ch->meta.types[s->stack_field->type].fields[jfr_meta_field(&r->ch->meta, s->stack_field->type, "frames")]
        : NULL;
    picked f, m, k;
    if (!frames || pick(r, frame, frames->type, frame_fields, 4, &f)) return r->ch->error->failed ? -1 : 0;
    if (f.field[1] && jfr_value_text(r->ch, f.at[1], f.field[1], out->frame_type, sizeof(out->frame_type))) return -1;
    if (f.field[2]) out->line = (int)jfr_value_number(r->ch, f.at[2], f.field[2]);
    if (f.field[3]) out->bci = (int)jfr_value_number(r->ch, f.at[3], f.field[3]);
    if (!f.field[0]) return 0;
    *method = jfr_value_deref(r->ch, f.at[0], f.field[0]);
    if (pick(r, *method, f.field[0]->type, method_fields, 4, &m)) return -1;
    if (m.field[1] && jfr_value_text(r->ch, m.at[1], m.field[1], out->method, sizeof(out->method))) return -1;
    if (m.field[2] && jfr_value_text(r->ch, m.at[2], m.field[2], out->descriptor, sizeof(out->descriptor))) return -1;
    if (m.field[3]) out->hidden = jfr_value_number(r->ch, m.at[3], m.field[3]) != 0;
    if (!m.field[0]) return 0;
    if (pick(r, jfr_value_deref(r->ch, m.at[0], m.field[0]), m.field[0]->type, class_fields, 1, &k)) return -1;
    if (k.field[0] && jfr_value_text(r->ch, k.at[0], k.field[0], out->cls, sizeof(out->cls))) return -1;
    return 0;
}

int jfr_sample_thread(jfr_sample_reader *r, const jfr_sample *s, char *name, size_t len, uint64_t *tid) {
    static const char *const names[] = {"javaName", "osName", "osThreadId"};
    picked p;
    name[0] = 0;
    *tid = 0;
    if (!s->thread || pick(r, s->thread, s->thread_field->type, names, 3, &p)) return r->ch->error->failed ? -1 : 0;
    if (p.field[0] && jfr_value_text(r->ch, p.at[0], p.field[0], name, len)) return -1;
    if (!name[0] && p.field[1] && jfr_value_text(r->ch, p.at[1], p.field[1], name, len)) return -1;
    if (p.field[2]) *tid = jfr_value_number(r->ch, p.at[2], p.field[2]);
    return r->ch->error->failed ? -1 : 0;
}

int jfr_sample_class(jfr_sample_reader *r, const jfr_sample *s, char *out, size_t len) {
    static const char *const names[] = {"name"};
    out[0] = 0;
    if (!s->cls || !s->cls_field) return 0;
    size_t cls = s->cls;
    uint32_t type = s->cls_field->type;
    if (s->layout->cls_inner >= 0) {
        /* OldObject.type: the class is a field of the struct the event names */
        const jfr_field *inner = &r->ch->meta.types[type].fields[s->layout->cls_inner];
        const char *inner_name[] = {inner->name};
        picked o;
        if (pick(r, cls, type, inner_name, 1, &o) || !o.field[0]) return r->ch->error->failed ? -1 : 0;
        cls = jfr_value_deref(r->ch, o.at[0], o.field[0]);
        type = o.field[0]->type;
    }
    picked k;
    if (pick(r, cls, type, names, 1, &k)) return -1;
    if (k.field[0] && jfr_value_text(r->ch, k.at[0], k.field[0], out, len)) return -1;
    return 0;
}

int jfr_sample_state(jfr_sample_reader *r, const jfr_sample *s, char *out, size_t len) {
    out[0] = 0;
    if (!s->state_field) return 0;
    return jfr_value_text(r->ch, s->state, s->state_field, out, len);
}

bool jfr_sample_chunk_has_state(jfr_sample_reader *r, const char *name) {
    uint32_t t = jfr_meta_find_name(&r->ch->meta, "jdk.types.ThreadState");
    if (t == JFR_NO_TYPE) return false;
    /* The entry itself, read as a value of its type: a simple type's text is its first field's. */
    jfr_field entry = {.name = "state", .type = t};
    char text[64];
    for (uint64_t key = 0; key < 256; key++) {
        uint64_t at;
        if (!u64map_get(&r->ch->meta.types[t].pool, key + 1, &at)) continue;
        if (jfr_value_text(r->ch, (size_t)(at - 1), &entry, text, sizeof(text))) return false;
        if (strcmp(text, name) == 0) return true;
    }
    return false;
}
