/*
 * event_kind: the names of the event kinds, one table, so the agent's options, its outputs and jfrconv
 * spell them alike.
 */
#include "event_kind.h"

#include <string.h>

static const char *const names[EVENT_KIND_COUNT] = {
    [EVENT_CPU] = "cpu",         [EVENT_WALL] = "wall",           [EVENT_ALLOC] = "alloc",
    [EVENT_LOCK] = "lock",       [EVENT_NATIVEMEM] = "nativemem", [EVENT_NATIVELOCK] = "nativelock",
    [EVENT_TRACE] = "trace",
};

const char *event_kind_name(event_kind k) {
    return (unsigned)k < EVENT_KIND_COUNT ? names[k] : "?";
}

int event_kind_find(const char *name) {
    for (int k = 0; k < EVENT_KIND_COUNT; k++)
        if (strcmp(name, names[k]) == 0) return k;
    return -1;
}
