/*
 * options_ratelimit: async-profiler's ratelimit= value, CATEGORY:N pairs. The agent separates them with ';'
 * (its grammar splits options on ','); jprof's --ratelimit takes asprof's ',' and passes ';'. Both are
 * accepted here, so a value copied from either works.
 */
#include "errmsg.h"
#include "options.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

const char *options_rate_category_name(unsigned category) {
    return category == OPTIONS_RATE_SPAN ? "span" : event_kind_name((event_kind)category);
}

static int category_of(const char *name, size_t n) {
    for (unsigned c = 0; c < OPTIONS_RATE_CATEGORIES; c++) {
        const char *known = options_rate_category_name(c);
        if (strlen(known) == n && strncmp(known, name, n) == 0) return (int)c;
    }
    return -1;
}

int options_rate_limits(const char *text, int64_t limits[OPTIONS_RATE_CATEGORIES], char *err, size_t errlen) {
    for (unsigned c = 0; c < OPTIONS_RATE_CATEGORIES; c++) limits[c] = -1;
    const char *accepted = "give CATEGORY:EVENTS_PER_SECOND pairs separated by ';' (jprof: ','), CATEGORY one of "
                           "cpu wall alloc lock nativemem nativelock trace span, such as cpu:1000;alloc:200";
    if (!*text) return errmsg_fail(err, errlen, "option 'ratelimit': empty: %s", accepted);
    for (const char *p = text; *p;) {
        size_t len = strcspn(p, ";,");
        const char *colon = memchr(p, ':', len);
        int c = colon ? category_of(p, (size_t)(colon - p)) : -1;
        char *end = NULL;
        errno = 0;
        long long n = colon ? strtoll(colon + 1, &end, 10) : -1;
        if (c < 0 || !colon || end != p + len || end == colon + 1 || n < 0 || n > INT_MAX || errno)
            return errmsg_fail(err, errlen, "option 'ratelimit=%s': bad pair '%.*s': %s", text, (int)len, p, accepted);
        limits[c] = n;
        p += len;
        if (*p) p++;
    }
    return 0;
}
