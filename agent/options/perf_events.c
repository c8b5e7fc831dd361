#include "perf_events.h"

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* A cache event's config: which cache, the operation (read), the result (miss), one byte each. */
#define LOAD_MISSES(cache) \
    ((cache) | (PERF_COUNT_HW_CACHE_OP_READ << 8) | ((uint64_t)PERF_COUNT_HW_CACHE_RESULT_MISS << 16))

static const perf_event_kind kinds[] = {
    {"cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, true, 0},
    {"task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, true, 0},
    {"page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, false, 1},
    {"minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN, false, 1},
    {"major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ, false, 1},
    {"context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, false, 2},
    {"cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS, false, 1},
    /* Hardware counters (the CPU's PMU), async-profiler's names and default periods. */
    {"cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, false, 1000000},
    {"instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, false, 1000000},
    {"cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES, false, 1000000},
    {"cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES, false, 1000},
    {"branch-instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, false, 1000000},
    {"branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, false, 1000},
    {"bus-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES, false, 1000000},
    {"ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES, false, 1000000},
    {"L1-dcache-load-misses", PERF_TYPE_HW_CACHE, LOAD_MISSES(PERF_COUNT_HW_CACHE_L1D), false, 1000000},
    {"LLC-load-misses", PERF_TYPE_HW_CACHE, LOAD_MISSES(PERF_COUNT_HW_CACHE_LL), false, 1000},
    {"dTLB-load-misses", PERF_TYPE_HW_CACHE, LOAD_MISSES(PERF_COUNT_HW_CACHE_DTLB), false, 1000},
};

/* perf's own short names. */
static const struct { const char *alias, *name; } aliases[] = {
    {"faults", "page-faults"}, {"cs", "context-switches"}, {"migrations", "cpu-migrations"},
    {"branches", "branch-instructions"},
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

static bool ident_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

bool perf_events_is_native_function(const char *name) {
    bool scoped = false;
    for (const char *p = name;;) {
        size_t n = 0;
        while (ident_char(p[n])) n++;
        if (n == 0 || (p[0] >= '0' && p[0] <= '9')) return false;
        p += n;
        if (*p == 0) return scoped;
        if (p[0] != ':' || p[1] != ':') return false;
        p += 2;
        scoped = true;
    }
}

int perf_events_mangled_prefix(const char *name, char *out, size_t len) {
    if (!perf_events_is_native_function(name)) return -1;
    size_t used = (size_t)snprintf(out, len, "_ZN");
    for (const char *p = name; used < len;) {
        size_t n = strcspn(p, ":");
        used += (size_t)snprintf(out + used, len - used, "%zu%.*s", n, (int)n, p);
        if (!p[n]) break;
        p += n + 2;
    }
    if (used < len) used += (size_t)snprintf(out + used, len - used, "E");
    return used < len ? 0 : -1;
}

const perf_event_kind *perf_events_at(int i) {
    return i >= 0 && (size_t)i < sizeof(kinds) / sizeof(kinds[0]) ? &kinds[i] : NULL;
}
