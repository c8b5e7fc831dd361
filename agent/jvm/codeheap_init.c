/*
 * codeheap_init: the set-up half of codeheap (signal/codeheap.c): the code cache's bounds from the VM's
 * structure tables. Outside signal handlers; called by jvm.c once the code cache exists.
 */
#include "codeheap.h"
#include "codeheap_init.h"

#include "vmstructs.h"

#include <stdio.h>

int codeheap_init(char *err, unsigned long errlen) {
    void *low_at, *high_at;
    if (vmstructs_init(err, errlen)) return -1;
    if (!vmstructs_static_address("CodeCache", "_low_bound", &low_at) ||
        !vmstructs_static_address("CodeCache", "_high_bound", &high_at)) {
        snprintf(err, errlen, "this JVM does not describe CodeCache::_low_bound/_high_bound");
        return -1;
    }
    uintptr_t lo = *(uintptr_t *)low_at, hi = *(uintptr_t *)high_at;
    if (!lo || hi <= lo) {
        snprintf(err, errlen, "the code cache is not reserved yet");
        return -1;
    }
    codeheap_set_bounds(lo, hi);
    return 0;
}
