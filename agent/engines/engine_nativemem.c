/*
 * engine_nativemem: native memory profiling. No signals: the allocation functions of every loaded object
 * (malloc, calloc, realloc, posix_memalign, aligned_alloc, and free unless 'nofree') are hooked in their
 * import tables (native_hooks_install.h), and each allocating thread records its own stack every
 * nativemem=BYTES bytes it allocated (0, the default: every call), weighted by those bytes, so 'total'
 * counts bytes. With 'leak', frees take their allocation back out of the profile, which then shows what was
 * allocated and not freed when it is written. In a JFR recording each sample is a profiler.Malloc event
 * (address, size) and each free of a recorded allocation a profiler.Free event, which jfrconv matches.
 */
#include "engine.h"
#include "leak_table_create.h"
#include "log.h"
#include "native_hooks.h"
#include "native_hooks_install.h"

#include <stdio.h>

/* Sampled allocations still alive that 'leak' can track: beyond, allocations are counted as untracked. */
#define LEAK_TABLE_ENTRIES (1u << 20)

static prof_options options;

static int nativemem_check(const prof_options *o, char *err, size_t errlen) {
    if (o->leak && o->nofree) {
        snprintf(err, errlen, "options 'leak' and 'nofree' conflict: leaks are found by matching frees");
        return -1;
    }
    return 0;
}

static int nativemem_start(const prof_options *o, uint64_t interval, char *err, size_t errlen) {
    options = *o;
    (void)interval;
    static leak_table *leaks;
    /* Frees matter to 'leak' and to a recording (profiler.Free events for jfrconv --leak); both need the
     * table of recorded allocations, which also keeps frees of anything else out of the recording. */
    bool jfr = options_effective_format(&options) == FORMAT_JFR;
    bool frees = !options.nofree && (options.leak || jfr);
    if (frees) {
        if (!leaks && !(leaks = leak_table_create(LEAK_TABLE_ENTRIES))) {
            snprintf(err, errlen, "leak: cannot reserve the table of live allocations");
            return -1;
        }
        leak_table_clear(leaks);
    }
    native_hooks.leaks = frees ? leaks : NULL;
    native_hooks.subtract_freed = options.leak;
    native_hooks.free_events = frees && jfr;
    native_hooks.mem_interval = options.nativemem;
    atomic_store(&native_hooks.mem_on, true);
    if (native_hooks_install(NATIVE_HOOKS_MEMORY, frees, err, errlen) < 0) {
        atomic_store(&native_hooks.mem_on, false);
        return -1;
    }
    return 0;
}

static void nativemem_stop(void) {
    native_hooks_remove(NATIVE_HOOKS_MEMORY);
    atomic_store(&native_hooks.mem_on, false);
    leak_table *leaks = native_hooks.leaks;
    if (leaks && atomic_load(&leaks->full))
        log_warn("leak: %llu sampled allocations could not be tracked (table full); their frees went unmatched",
                 (unsigned long long)atomic_load(&leaks->full));
}

const engine engine_nativemem = {
    .name = "nativemem",
    .units = ENGINE_UNITS_BYTES,
    .event = EVENT_NATIVEMEM,
    .default_interval = 0,
    .delivery = ENGINE_DELIVERY_IMPORT_HOOK,
    .check = nativemem_check,
    .start = nativemem_start,
    .stop = nativemem_stop,
};
