/*
 * [signal-safe] frame_bound: frame_bound_stack (frame.h), the jstackdepth bound the handler applies to
 * every stack it assembles; the rest of frame.h is naming, used outside handlers (frame.c).
 */
#include "frame.h"

uint32_t frame_bound_stack(trace_frame *frames, uint32_t depth, uint32_t max) {
    if (depth <= max) return depth;
    frames[max] = (trace_frame){MARKER_TRUNCATED, 0, FRAME_MARKER};
    return max + 1;
}
