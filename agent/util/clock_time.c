/* clock_time: times of day for timeout= and loop= (clock_time.h). */
#include "clock_time.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define ANY 0xff
#define PRESENT 0x01000000u

/* One field: '*' (when allowed) or one or two digits up to 'max'; 'end' after it. */
static int field(const char *s, int max, bool any_allowed, const char **end) {
    if (*s == '*' && any_allowed) {
        *end = s + 1;
        return ANY;
    }
    int v = 0, digits = 0;
    while (*s >= '0' && *s <= '9' && digits < 2) v = v * 10 + (*s++ - '0'), digits++;
    *end = s;
    return digits && v <= max ? v : -1;
}

int clock_time_parse(const char *text, uint32_t *out) {
    const char *p;
    int hh = text ? field(text, 23, true, &p) : -1;
    if (hh < 0 || *p != ':') return -1;
    /* A wildcard only before a fixed field: "*:30" is every hour at half past, "12:*" would mean nothing. */
    int mm = field(p + 1, 59, hh == ANY, &p), ss = 0;
    if (mm < 0) return -1;
    if (*p == ':' && (ss = field(p + 1, 59, false, &p)) < 0) return -1;
    if (*p) return -1;
    *out = PRESENT | (uint32_t)hh << 16 | (uint32_t)mm << 8 | (uint32_t)ss;
    return 0;
}

uint64_t clock_time_ns_until(uint32_t clock) {
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    /* The whole seconds count from the start of this one: take away the part of it already gone. */
    return clock_time_seconds_until(clock, now.tv_sec) * 1000000000ULL - (uint64_t)now.tv_nsec;
}

uint64_t clock_time_seconds_until(uint32_t clock, time_t now) {
    int hh = (int)(clock >> 16 & 0xff), mm = (int)(clock >> 8 & 0xff), ss = (int)(clock & 0xff);
    struct tm today;
    localtime_r(&now, &today);
    if (hh != ANY) {
        /* Today's, else tomorrow's (or the day after, should a daylight-saving change skip it): each day's
         * candidate from the day's own date, so a time that did not exist on one day is not carried over. */
        for (int day = 0; day < 3; day++) {
            struct tm t = today;
            t.tm_mday += day;
            t.tm_hour = hh, t.tm_min = mm, t.tm_sec = ss;
            t.tm_isdst = -1;
            time_t next = mktime(&t);
            if (next > now) return (uint64_t)(next - now);
        }
        return 86400;
    }
    /* Any hour (or minute): this hour's candidate, then every hour (minute) after it in plain seconds, so
     * the hour a daylight-saving change repeats has its own turn. */
    struct tm t = today;
    if (mm != ANY) t.tm_min = mm;
    t.tm_sec = ss;
    t.tm_isdst = -1;
    time_t next = mktime(&t);
    time_t step = mm != ANY ? 3600 : 60;
    while (next <= now) next += step;
    return (uint64_t)(next - now);
}
