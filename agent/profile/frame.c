#include "frame.h"

static const char *const marker_names[MARKER_COUNT] = {
    [MARKER_NO_CLASS_LOAD] = "[no_class_load]",
    [MARKER_GC_ACTIVE] = "[GC_active]",
    [MARKER_UNKNOWN_NOT_JAVA] = "[unknown_not_Java]",
    [MARKER_NOT_WALKABLE_NOT_JAVA] = "[not_walkable_not_Java]",
    [MARKER_UNKNOWN_JAVA] = "[unknown_Java]",
    [MARKER_NOT_WALKABLE_JAVA] = "[not_walkable_Java]",
    [MARKER_UNKNOWN_STATE] = "[unknown_state]",
    [MARKER_THREAD_EXIT] = "[thread_exit]",
    [MARKER_DEOPT] = "[deopt]",
    [MARKER_SAFEPOINT] = "[safepoint]",
    [MARKER_NO_JAVA_FRAMES] = "[no_Java_frames]",
    [MARKER_NON_JAVA_THREAD] = "[non_Java_thread]",
    [MARKER_TRUNCATED] = "[truncated]",
    [MARKER_FROZEN_FRAMES] = "[frozen_frames]",
};

const char *frame_marker_name(int marker) {
    return marker > 0 && marker < MARKER_COUNT ? marker_names[marker] : 0;
}

bool frame_marker_is_failure(int marker) {
    return marker >= MARKER_NO_CLASS_LOAD && marker <= MARKER_SAFEPOINT;
}
