/*
 * java_tids_init: the set-up half of java_tids (signal/java_tids.c): its bits (tid_bitmap), mapped once.
 * Outside signal handlers; called by jvm.c.
 */
#include "java_tids.h"
#include "java_tids_init.h"
#include "tid_bitmap.h"

#include <stdbool.h>

static bool ready;

int java_tids_init(void) {
    if (ready) return 0;
    size_t count;
    _Atomic uint64_t *bits = tid_bitmap_map(&count);
    if (!bits) return -1;
    java_tids_use(bits, count);
    ready = true;
    return 0;
}
