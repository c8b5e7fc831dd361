/*
 * perf_breakpoint: see the header. The function is looked up by the start of its mangled name, which every
 * overload's symbol shares, in the objects mapped now (the map refreshed first: libjvm is, at any point an
 * agent runs).
 */
#include "perf_breakpoint.h"

#include "log.h"
#include "native_map.h"
#include "perf_events.h"

#include <stdio.h>

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
