/*
 * perf_breakpoint: see the header. The function is looked up by the start of its mangled name, which every
 * overload's symbol shares, in the objects mapped now (the map refreshed first: libjvm is, at any point an
 * agent runs).
 */
#include "perf_breakpoint.h"

#include "log.h"
#include "native_map.h"
#include "perf_events.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

int perf_breakpoint_find(const char *function, uintptr_t *addr, char *err, size_t errlen) {
    char prefix[512];
    if (perf_events_mangled_prefix(function, prefix, sizeof(prefix)) != 0) {
        snprintf(err, errlen, "not a native function's name (Class::method)");
        return -1;
    }
    if (native_map_refresh() < 0) {
        snprintf(err, errlen, "cannot read /proc/self/maps to find the function");
        return -1;
    }
    const char *object = NULL;
    if (!native_map_find_function(prefix, addr, &object)) {
        snprintf(err, errlen, "no such function in the symbol tables of the loaded libraries (a C++ function's "
                 "name, Class::method, as the JVM's own symbols spell it; a library without symbols, or not loaded "
                 "yet, has none to find)");
        return -1;
    }
    log_debug("event=%s: the function starts at %#lx in %s", function, (unsigned long)*addr, object ? object : "?");
    return 0;
}

int perf_breakpoint_uprobe_type(void) {
    FILE *f = fopen("/sys/bus/event_source/devices/uprobe/type", "r");
    int type = -1;
    if (f) {
        if (fscanf(f, "%d", &type) != 1) type = -1;
        fclose(f);
    }
    return type;
}

int perf_breakpoint_file_offset(uintptr_t addr, char *path, size_t len, uint64_t *offset) {
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f) return -1;
    char line[4096];
    int rc = -1;
    while (rc && fgets(line, sizeof(line), f)) {
        uintptr_t start, end;
        uint64_t off;
        int name_at = 0;
        if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR " %*s %" SCNx64 " %*s %*s %n", &start, &end, &off, &name_at) < 3 ||
            addr < start || addr >= end || !name_at || line[name_at] != '/')
            continue;
        line[strcspn(line, "\n")] = 0;
        snprintf(path, len, "%s", line + name_at);
        *offset = addr - start + off;
        rc = 0;
    }
    fclose(f);
    return rc;
}
