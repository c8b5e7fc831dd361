#define _GNU_SOURCE
#include "named_profile.h"

#include "frame_names.h"
#include "jvm_threads.h"
#include "native_map.h"
#include "names.h"
#include "thread_state.h"
#include "threads.h"

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
    uint32_t *scratch;  /* root-first name ids of the stack being converted */
    uint32_t scratch_capacity;
    int failed;
} named_state;

/* Named once per distinct Java method or native pc (the map 'cache' holds name id + 1); kernel frames and
 * markers are cheap to name again. */
static uint32_t frame_name(named_state *d, const trace_frame *f) {
    u64map *cache = frame_kind_is_java(f->kind) && f->id ? &d->methods : f->kind == FRAME_NATIVE ? &d->natives : NULL;
    /* A method's name differs by its frame kind (annotations, colours): the kind is in the key's low bits,
     * where a jmethodID, a pointer, has its alignment zeros. */
    uint64_t key = cache == &d->methods ? f->id ^ (uint64_t)f->kind : f->id, cached;
    if (cache && u64map_get(cache, key, &cached)) return (uint32_t)(cached - 1);
    char name[2048];
    frame_type type = frame_names_get(f, d->style, d->options->lib, name, sizeof(name), NULL);
    uint32_t id = profile_intern(d->profile, name, type);
    if (cache && id != UINT32_MAX && u64map_put(cache, key, (uint64_t)id + 1)) return UINT32_MAX;
    return id;
}

static uint32_t thread_frame_name(named_state *d, uint32_t tid) {
    char thread[256], frame[300];
    threads_get_name((int)tid, thread, sizeof(thread));
    names_thread(frame, sizeof(frame), thread, (int)tid);
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

static void visit(const trace_frame *frames, uint32_t depth, const trace_key *key, uint64_t samples, uint64_t weight,
                  void *arg) {
    named_state *d = arg;
    if (d->failed || key->event != d->event) return;
    if (d->options->state_mask && !(d->options->state_mask & (1u << key->state))) return;
    uint32_t tid = key->tid;
    uint32_t need = depth + 2;
    if (need > d->scratch_capacity) {
        uint32_t *grown = realloc(d->scratch, need * sizeof(uint32_t));
        if (!grown) {
            d->failed = 1;
            return;
        }
        d->scratch = grown;
        d->scratch_capacity = need;
    }
    uint32_t n = 0;
    if (d->options->threads) d->scratch[n++] = thread_frame_name(d, tid);
    if (d->options->states) d->scratch[n++] = state_frame_name(d, key->state);
    for (uint32_t i = depth; i-- > 0;) d->scratch[n++] = frame_name(d, &frames[i]);
    for (uint32_t i = 0; i < n; i++) {
        if (d->scratch[i] == UINT32_MAX) {
            d->failed = 1;
            return;
        }
    }
    const prof_options *o = d->options;
    if (o->include_count && !any_frame_matches(d->profile, d->scratch, n, o->include, o->include_count)) return;
    if (o->exclude_count && any_frame_matches(d->profile, d->scratch, n, o->exclude, o->exclude_count)) return;
    if (profile_add(d->profile, d->scratch, n, samples, weight)) d->failed = 1;
}

int named_profile_build(trace_table *table, const prof_options *o, event_kind event, profile *p) {
    native_map_refresh();  /* libraries loaded since the last refresh get their names too */
    jvm_threads_refresh_names();  /* threads renamed since they started are shown as they are called now */
    named_state d = {.options = o, .event = event, .profile = p, .style = {o->simple, o->dot, o->sig, o->ann}};
    u64map_init(&d.methods);
    u64map_init(&d.natives);
    if (traces_for_each(table, visit, &d)) d.failed = 1;
    u64map_free(&d.methods);
    u64map_free(&d.natives);
    free(d.scratch);
    return d.failed ? -1 : 0;
}
