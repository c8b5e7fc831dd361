/*
 * engine_nativelock: native lock contention. pthread_mutex_lock, pthread_rwlock_rdlock and
 * pthread_rwlock_wrlock are hooked in every loaded object's import table (native_hooks_install.h); a hooked
 * call tries the lock first and only when it would block times the wait. Each thread records its stack
 * once it has waited nativelock=TIME (10 us by default) since its last sample, weighted by that time in ns.
 */
#include "engine.h"
#include "log.h"
#include "native_hooks.h"
#include "native_hooks_install.h"

#include <stdio.h>

static prof_options options;

static int nativelock_check(const prof_options *o, char *err, size_t errlen) {
    (void)o, (void)err, (void)errlen;
    return 0;
}

static int nativelock_start(const prof_options *o, uint64_t interval, char *err, size_t errlen) {
    options = *o;
    (void)interval;
    native_hooks.lock_interval = options.nativelock;
    atomic_store(&native_hooks.lock_waits, 0);
    atomic_store(&native_hooks.lock_on, true);
    if (native_hooks_install(NATIVE_HOOKS_LOCKS, false, err, errlen) < 0) {
        atomic_store(&native_hooks.lock_on, false);
        return -1;
    }
    return 0;
}

static void nativelock_stop(void) {
    native_hooks_remove(NATIVE_HOOKS_LOCKS);
    atomic_store(&native_hooks.lock_on, false);
    log_info("nativelock: %llu contended waits", (unsigned long long)atomic_load(&native_hooks.lock_waits));
}

const engine engine_nativelock = {
    .name = "nativelock",
    .units = ENGINE_UNITS_NS,
    .event = EVENT_NATIVELOCK,
    .default_interval = 0,
    .delivery = ENGINE_DELIVERY_IMPORT_HOOK,
    .check = nativelock_check,
    .start = nativelock_start,
    .stop = nativelock_stop,
};
