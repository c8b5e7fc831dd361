#define _GNU_SOURCE
#include "dump.h"

#include "frame_symbols.h"
#include "jvm.h"
#include "jvm_threads.h"
#include "native_map.h"
#include "names.h"
#include "threads.h"

#include <stdio.h>
#include <string.h>
#include <stdlib.h>

typedef struct {
    const prof_options *options;
    profile *profile;
    names_style style;
    u64map methods;     /* jmethodID -> name id + 1 */
    u64map natives;     /* pc -> name id + 1 */
    uint32_t *scratch;  /* root-first name ids of the stack being converted */
    uint32_t scratch_capacity;
    int failed;
} dump_state;

static uint32_t java_frame_name(dump_state *d, const trace_frame *f) {
    uint64_t cached;
    if (u64map_get(&d->methods, f->id, &cached)) return (uint32_t)(cached - 1);
    char name[2048];
    if (jvm_method_name((jmethodID)(uintptr_t)f->id, d->style, name, sizeof(name)) != 0)
        snprintf(name, sizeof(name), "[unknown_method]");
    uint32_t id = profile_intern(d->profile, name, FTYPE_JAVA);
    if (id != UINT32_MAX && u64map_put(&d->methods, f->id, (uint64_t)id + 1)) return UINT32_MAX;
    return id;
}

/* Native frames by the object's symbol tables (native_map), else the dynamic linker's view (dladdr). */
static uint32_t native_frame_name(dump_state *d, const trace_frame *f) {
    uint64_t cached;
    if (u64map_get(&d->natives, f->id, &cached)) return (uint32_t)(cached - 1);
    char name[1024];
    frame_symbols_native((uintptr_t)f->id, d->options->lib, name, sizeof(name), NULL);
    uint32_t id = profile_intern(d->profile, name, FTYPE_NATIVE);
    if (id != UINT32_MAX && u64map_put(&d->natives, f->id, (uint64_t)id + 1)) return UINT32_MAX;
    return id;
}

/* Kernel frames by /proc/kallsyms, else the address when kernel pointers are hidden (kptr_restrict). */
static uint32_t kernel_frame_name(dump_state *d, const trace_frame *f) {
    char name[300];
    frame_symbols_kernel(f->id, name, sizeof(name) - 8);
    if (d->style.ann) strcat(name, "_[k]");
    return profile_intern(d->profile, name, FTYPE_KERNEL);
}

static uint32_t frame_name(dump_state *d, const trace_frame *f) {
    if (f->kind == FRAME_JAVA && f->id) return java_frame_name(d, f);
    if (f->kind == FRAME_NATIVE) return native_frame_name(d, f);
    if (f->kind == FRAME_KERNEL) return kernel_frame_name(d, f);
    const char *marker = f->kind == FRAME_MARKER ? frame_marker_name((int)f->id) : NULL;
    return profile_intern(d->profile, marker ? marker : "[unknown]", FTYPE_MARKER);
}

static uint32_t thread_frame_name(dump_state *d, uint32_t tid) {
    char thread[256], frame[300];
    threads_get_name((int)tid, thread, sizeof(thread));
    names_thread(frame, sizeof(frame), thread, (int)tid);
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

static void visit(const trace_frame *frames, uint32_t depth, uint32_t tid, uint64_t samples, uint64_t weight,
                  void *arg) {
    dump_state *d = arg;
    if (d->failed) return;
    uint32_t need = depth + 1;
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

int dump_build_profile(trace_table *table, const prof_options *o, profile *p) {
    native_map_refresh();  /* libraries loaded since the last refresh get their names too */
    jvm_threads_refresh_names();  /* threads renamed since they started are shown as they are called now */
    dump_state d = {.options = o, .profile = p, .style = {o->simple, o->dot, o->sig, o->ann}};
    u64map_init(&d.methods);
    u64map_init(&d.natives);
    traces_for_each(table, visit, &d);
    u64map_free(&d.methods);
    u64map_free(&d.natives);
    free(d.scratch);
    return d.failed ? -1 : 0;
}
