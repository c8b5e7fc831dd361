/*
 * rate_limits: see rate_limits.h. The refill runs on its own thread rather than on the JFR writer's: the
 * limits hold for every output, and a writer busy with a chunk must not stretch a second.
 */
#include "rate_limits.h"

#include "log.h"
#include "periodic.h"
#include "rate_limit.h"

#include <stdio.h>

_Static_assert(OPTIONS_RATE_CATEGORIES == RATE_LIMIT_CATEGORIES && OPTIONS_RATE_SPAN == RATE_LIMIT_SPAN,
               "ratelimit='s categories are the signal path's");

static periodic refiller;

int rate_limits_start(const prof_options *o, char *err, size_t errlen) {
    if (!o->ratelimit[0]) return 0;
    int64_t limits[OPTIONS_RATE_CATEGORIES];
    if (options_rate_limits(o->ratelimit, limits, err, errlen)) return -1;
    rate_limit_set(limits);
    if (periodic_start(&refiller, 1000000000L, rate_limit_refill)) {
        rate_limit_off();
        snprintf(err, errlen, "ratelimit: cannot start the thread that refills the budgets every second");
        return -1;
    }
    for (unsigned c = 0; c < OPTIONS_RATE_CATEGORIES; c++)
        if (limits[c] >= 0)
            log_info("ratelimit: at most %lld %s events a second", (long long)limits[c], options_rate_category_name(c));
    return 0;
}

void rate_limits_stop(void) {
    periodic_stop(&refiller);
    rate_limit_off();
}
