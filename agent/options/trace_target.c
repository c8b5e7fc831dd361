/*
 * trace_target: the threshold is split off at the first ':' after the last '.', as async-profiler does:
 * a descriptor holds neither, so `Class.method(I)V:10ms` splits where it should. The rest is a method
 * target; its error is reworded to name trace=, not event=.
 */
#include "trace_target.h"

#include "errmsg.h"
#include "options.h"

#include <stdio.h>
#include <string.h>

int trace_target_parse(const char *text, trace_target *t, char *err, size_t errlen) {
    memset(t, 0, sizeof(*t));
    char method[METHOD_TARGET_MAX * 2];
    if (!text || !*text) return errmsg_fail(err, errlen, "option 'trace': needs a method; " TRACE_TARGET_ACCEPTED);
    if (strlen(text) >= sizeof(method))
        return errmsg_fail(err, errlen, "option 'trace=%.40s...': longer than %zu characters", text, sizeof(method) - 1);
    snprintf(method, sizeof(method), "%s", text);
    const char *dot = strrchr(method, '.');
    char *colon = dot ? strchr(dot, ':') : NULL;
    if (colon) {
        *colon = 0;
        if (options_parse_duration(colon + 1, 1, &t->threshold_ns))
            return errmsg_fail(err, errlen, "option 'trace=%s': threshold '%s' is not a duration; " TRACE_TARGET_ACCEPTED,
                               text, colon + 1);
    }
    char why[OPTIONS_ERROR_MAX];
    if (method_target_parse(method, &t->target, why, sizeof(why)) == 0) return 0;
    /* "option 'event=X': reason; accepted: ..." -> the reason alone, after our own subject */
    const char *reason = strstr(why, "': ");
    reason = reason ? reason + 3 : why;
    const char *accepted = strstr(reason, "; accepted");
    int n = accepted ? (int)(accepted - reason) : (int)strlen(reason);
    return errmsg_fail(err, errlen, "option 'trace=%s': %.*s; " TRACE_TARGET_ACCEPTED, text, n, reason);
}
