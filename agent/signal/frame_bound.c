/*
 * [signal-safe] frame_bound: frame_bound_stack (frame.h), the jstackdepth bound the handler applies to
 * every stack it assembles; the rest of frame.h is naming, used outside handlers (frame.c).
 */
#include "frame.h"

uint32_t frame_bound_stack(trace_frame *frames, uint32_t depth, uint32_t max, uint32_t cut) {
    bool walker_cut = depth > 0 && frames[depth - 1].kind == FRAME_MARKER && frames[depth - 1].id == MARKER_TRUNCATED;
    if (walker_cut) depth--;
    if (depth < max && !walker_cut) return depth;
    if (cut == 0 || cut >= max) return depth < max ? depth : max;
    uint32_t keep = depth < cut ? depth : cut;
    frames[keep] = (trace_frame){MARKER_TRUNCATED, 0, FRAME_MARKER};
    return keep + 1;
}
