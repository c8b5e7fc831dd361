/*
 * [signal-safe] deopt_frames: see deopt_frames.h.
 */
#include "deopt_frames.h"

#include "codeblob.h"
#include "safe_read.h"

#include <stdatomic.h>

/* More frames than a compiled method can inline: a count above it is not a live vframeArray. */
#define MAX_DEOPT_FRAMES 1024

static deopt_frames_layout layout;
static _Atomic bool layout_set;

void deopt_frames_set_layout(const deopt_frames_layout *l) {
    layout = *l;
    atomic_store_explicit(&layout_set, true, memory_order_release);
}

deopt_state deopt_frames_unpacking(uintptr_t env, deopt_unpacking *out) {
    uintptr_t array, caller_sp;
    int64_t count;
    if (!env || !atomic_load_explicit(&layout_set, memory_order_acquire) || env < layout.env_offset ||
        !safe_read_word(env - layout.env_offset + layout.array_head, &array))
        return DEOPT_UNKNOWN;
    if (!array) return DEOPT_DONE;
    if (!codeblob_read_field(array + layout.frames, 4, &count) || count < 1 || count > MAX_DEOPT_FRAMES ||
        !safe_read_word(array + layout.caller, &caller_sp) || !caller_sp)
        return DEOPT_UNKNOWN;
    *out = (deopt_unpacking){array, (int)count, caller_sp};
    return DEOPT_UNPACKING;
}

bool deopt_frames_element(const deopt_unpacking *u, int k, uintptr_t *method, int32_t *bci) {
    uintptr_t at = u->array + layout.elements + (uintptr_t)k * layout.element_size;
    int64_t b;
    if (k < 0 || k >= u->count || !safe_read_word(at + layout.element_method, method) || !*method ||
        !codeblob_read_field(at + layout.element_bci, 4, &b))
        return false;
    *bci = (int32_t)b;
    return true;
}
