#define _GNU_SOURCE
#include "named_profile.h"

#include "frame_names.h"
#include "jvm_threads.h"
#include "method_sources.h"
#include "native_map.h"
#include "names.h"
#include "thread_state.h"
#include "threads.h"
#include "viewer_formats.h"

#include <stdio.h>
#include <string.h>
#include <stdlib.h>

typedef struct {
    const prof_options *options;
    event_kind event;
    profile *profile;
    names_style style;
    u64map methods;     /* jmethodID -> name id + 1 */
    u64map natives;     /* pc -> name id + 1 */
    u64map lined;       /* with 'lines': hash of (jmethodID ^ kind, line) -> name id + 1 */
    uint32_t *scratch;  /* root-first name ids of the stack being converted */
    int32_t *lines;     /* and their source lines, when the format shows them (NULL otherwise) */
    uint32_t scratch_capacity;
    method_sources *sources;   /* NULL unless the format shows source files and lines, or 'lines' is given */
    bool stack_lines;          /* each stack carries its frames' lines (viewer formats) */
    int failed;
} named_state;

/* A Java frame named "class.method:LINE" (the 'lines' option), before the 'ann' suffix. */
static frame_type name_with_line(named_state *d, const trace_frame *f, int32_t line, char *name, size_t len) {
    names_style plain = d->style;
    plain.ann = false;
    frame_type type = frame_names_get(f, plain, d->options->lib, name, len - 16, NULL);
    size_t used = strlen(name);
    if (line > 0) used += (size_t)snprintf(name + used, len - used, ":%d", line);
    if (d->style.ann) snprintf(name + used, len - used, "%s", frame_type_java_suffix(type));
    return type;
}

/* The source line of a Java frame's bytecode index (0 when unknown), and the method's source file and
 * first line noted on its name 'id' the first time (UINT32_MAX: no name yet). */
static int32_t java_line(named_state *d, const trace_frame *f, uint32_t id) {
    const char *file;
    int32_t start;
    const method_source *m = method_sources_get(d->sources, f->id, &file, &start);
    if (!m) {
        d->failed = 1;
        return 0;
    }
    if (id != UINT32_MAX) {
        profile_source known = profile_source_of(d->profile, id);
        if (!known.file[0] && !known.start_line && (file[0] || start) && profile_set_source(d->profile, id, file, start))
            d->failed = 1;
    }
    return method_sources_line(m, f->bci);
}

/* Named once per distinct Java method (and line, with 'lines') or native pc (the map 'cache' holds name
 * id + 1); kernel frames and markers are cheap to name again. */
static uint32_t frame_name(named_state *d, const trace_frame *f) {
    bool java = frame_kind_is_java(f->kind) && f->id, lined = java && d->options->lines;
    u64map *cache = lined ? &d->lined : java ? &d->methods : f->kind == FRAME_NATIVE ? &d->natives : NULL;
    int32_t line = lined ? java_line(d, f, UINT32_MAX) : 0;
    /* A method's name differs by its frame kind (annotations, colours): the kind is in the key's low bits,
     * where a jmethodID, a pointer, has its alignment zeros; with 'lines' the line is hashed in too (its own
     * map: a hash never meets a plain key). */
    uint64_t key = java ? f->id ^ (uint64_t)f->kind : f->id, cached;
    if (lined) {
        uint64_t parts[2] = {key, (uint64_t)(uint32_t)line};
        key = u64map_hash_bytes(parts, sizeof(parts)) | 1;
    }
    if (cache && u64map_get(cache, key, &cached)) return (uint32_t)(cached - 1);
    char name[2048];
    frame_type type = lined ? name_with_line(d, f, line, name, sizeof(name))
                                               : frame_names_get(f, d->style, d->options->lib, name, sizeof(name), NULL);
    uint32_t id = profile_intern(d->profile, name, type);
    if (cache && id != UINT32_MAX && u64map_put(cache, key, (uint64_t)id + 1)) return UINT32_MAX;
    return id;
}

/* The source line of a frame for the viewer formats (0 for others than Java or unknown). */
static int32_t frame_line(named_state *d, const trace_frame *f, uint32_t id) {
    if (!frame_kind_is_java(f->kind) || !f->id || id == UINT32_MAX) return 0;
    return java_line(d, f, id);
}

static uint32_t thread_frame_name(named_state *d, uint32_t tid) {
    char thread[256], frame[300];
    names_thread(frame, sizeof(frame), threads_get_name((int)tid, thread, sizeof(thread)) ? thread : NULL, (int)tid);
    return profile_intern(d->profile, frame, FTYPE_THREAD);
}

static uint32_t state_frame_name(named_state *d, int state) {
    char frame[THREAD_STATE_FRAME_MAX];
    const char *name = thread_state_jfr_name(state);
    snprintf(frame, sizeof(frame), "[%s]", name ? name : "STATE_DEFAULT");
    return profile_intern(d->profile, frame, FTYPE_THREAD);
}

static bool any_frame_matches(const profile *p, const uint32_t *ids, uint32_t n, const char (*patterns)[256],
                              int pattern_count) {
    for (uint32_t i = 0; i < n; i++) {
        for (int k = 0; k < pattern_count; k++) {
            if (names_match(patterns[k], p->names[ids[i]])) return true;
        }
    }
    return false;
}

/* The stack named and added; its index in the profile, or -1 when it is not shown (another event, state,
 * include/exclude) or naming failed (d->failed). */
static long add_stack(named_state *d, const trace_frame *frames, uint32_t depth, const trace_key *key,
                      uint64_t samples, uint64_t weight) {
    if (d->failed || key->event != d->event) return -1;
    if (d->options->state_mask && !(d->options->state_mask & (1u << key->state))) return -1;
    uint32_t tid = key->tid;
    uint32_t need = depth + 2;
    if (need > d->scratch_capacity) {
        uint32_t *grown = realloc(d->scratch, need * sizeof(uint32_t));
        int32_t *lines = realloc(d->lines, need * sizeof(int32_t));
        if (grown) d->scratch = grown;
        if (lines) d->lines = lines;
        if (!grown || !lines) {
            d->failed = 1;
            return -1;
        }
        d->scratch_capacity = need;
    }
    uint32_t n = 0;
    memset(d->lines, 0, need * sizeof(int32_t));
    if (d->options->threads) d->scratch[n++] = thread_frame_name(d, tid);
    if (d->options->states) d->scratch[n++] = state_frame_name(d, key->state);
    for (uint32_t i = depth; i-- > 0; n++) {
        d->scratch[n] = frame_name(d, &frames[i]);
        if (d->stack_lines) d->lines[n] = frame_line(d, &frames[i], d->scratch[n]);
    }
    for (uint32_t i = 0; i < n; i++) {
        if (d->scratch[i] == UINT32_MAX) {
            d->failed = 1;
            return -1;
        }
    }
    const prof_options *o = d->options;
    if (o->include_count && !any_frame_matches(d->profile, d->scratch, n, o->include, o->include_count)) return -1;
    if (o->exclude_count && any_frame_matches(d->profile, d->scratch, n, o->exclude, o->exclude_count)) return -1;
    long at = profile_add_lines(d->profile, d->scratch, d->stack_lines ? d->lines : NULL, n, samples, weight);
    if (at < 0) d->failed = 1;
    return at;
}

static void visit(const trace_frame *frames, uint32_t depth, const trace_key *key, uint64_t samples, uint64_t weight,
                  void *arg) {
    add_stack(arg, frames, depth, key, samples, weight);
}

int named_profile_build(trace_table *table, const prof_options *o, event_kind event, profile *p) {
    return named_profile_build_ids(table, o, event, p, NULL, 0, NULL);
}

int named_profile_build_ids(trace_table *table, const prof_options *o, event_kind event, profile *p,
                            const uint32_t *ids, size_t id_count, long *stacks) {
    native_map_refresh();  /* libraries loaded since the last refresh get their names too */
    jvm_threads_refresh_names();  /* threads renamed since they started are shown as they are called now */
    named_state d = {.options = o, .event = event, .profile = p, .style = {o->simple, o->dot, o->sig, o->ann}};
    method_sources sources;
    method_sources_init(&sources);
    d.stack_lines = viewer_format_shows_source(options_effective_format(o));
    if (d.stack_lines || o->lines) d.sources = &sources;
    u64map_init(&d.methods);
    u64map_init(&d.natives);
    u64map_init(&d.lined);
    if (traces_for_each(table, visit, &d)) d.failed = 1;
    /* Each id's stack again, with nothing added: profile_add_lines merges it and says where it is. */
    traces_buffer buf = {0};
    for (size_t i = 0; i < id_count && !d.failed; i++) {
        const trace_frame *frames;
        uint32_t depth;
        trace_key key;
        stacks[i] = traces_get(table, ids[i], &buf, &frames, &depth) && traces_get_key(table, ids[i], &key)
                    ? add_stack(&d, frames, depth, &key, 0, 0) : -1;
    }
    traces_buffer_free(&buf);
    u64map_free(&d.methods);
    u64map_free(&d.natives);
    u64map_free(&d.lined);
    method_sources_free(&sources);
    free(d.scratch);
    free(d.lines);
    return d.failed ? -1 : 0;
}
