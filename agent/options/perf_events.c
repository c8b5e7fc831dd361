#include "perf_events.h"

#include <linux/perf_event.h>
#include <stddef.h>
#include <string.h>

static const perf_event_kind kinds[] = {
    {"cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, true, 0},
    {"task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, true, 0},
    {"page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, false, 1},
    {"minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN, false, 1},
    {"major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ, false, 1},
    {"context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, false, 2},
    {"cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS, false, 1},
};

/* perf's own short names. */
static const struct { const char *alias, *name; } aliases[] = {
    {"faults", "page-faults"}, {"cs", "context-switches"}, {"migrations", "cpu-migrations"},
};

const perf_event_kind *perf_events_find(const char *name) {
    for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++) {
        if (strcmp(name, aliases[i].alias) == 0) name = aliases[i].name;
    }
    for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
        if (strcmp(name, kinds[i].name) == 0) return &kinds[i];
    }
    return NULL;
}

const perf_event_kind *perf_events_at(int i) {
    return i >= 0 && (size_t)i < sizeof(kinds) / sizeof(kinds[0]) ? &kinds[i] : NULL;
}
