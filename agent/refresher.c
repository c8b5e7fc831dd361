#include "refresher.h"

#include "log.h"
#include "native_map.h"
#include "walk.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <time.h>

#define PERIOD_NS 50000000L

static pthread_t thread;
static _Atomic bool running, stop_requested;

static void *refresh_loop(void *arg) {
    (void)arg;
    while (!atomic_load(&stop_requested)) {
        struct timespec period = {0, PERIOD_NS};
        nanosleep(&period, NULL);
        if (walk_take_unknown_code_flag()) {
            int added = native_map_refresh();
            if (added > 0) log_debug("native code map: %d new objects", added);
        }
    }
    return NULL;
}

int refresher_start(void) {
    if (atomic_load(&running)) return 0;
    atomic_store(&stop_requested, false);
    if (pthread_create(&thread, NULL, refresh_loop, NULL) != 0) return -1;
    atomic_store(&running, true);
    return 0;
}

void refresher_stop(void) {
    if (!atomic_load(&running)) return;
    atomic_store(&stop_requested, true);
    pthread_join(thread, NULL);
    atomic_store(&running, false);
}
