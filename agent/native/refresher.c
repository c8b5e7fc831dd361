#include "refresher.h"

#include "log.h"
#include "native_map.h"
#include "periodic.h"
#include "walk.h"

#define PERIOD_NS 50000000L

static periodic thread;

static void refresh(void) {
    if (walk_take_unknown_code_flag()) {
        int added = native_map_refresh();
        if (added > 0) log_debug("native code map: %d new objects", added);
    }
}

int refresher_start(void) {
    return periodic_start(&thread, PERIOD_NS, refresh);
}

void refresher_stop(void) {
    periodic_stop(&thread);
}
