#include "completeness.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

static uint64_t sum(const profile_count *c, int n) {
    uint64_t total = 0;
    for (int i = 0; i < n; i++) total += c[i].count;
    return total;
}

uint64_t completeness_dropped(const profile *p) {
    return sum(p->meta.drops, p->meta.drop_count);
}

uint64_t completeness_failed(const profile *p) {
    return sum(p->meta.failures, p->meta.failure_count);
}

/* Appends to buf with snprintf's truncation rules: 'used' counts what would have been written, so it may
 * pass len; later appends then write nothing. Never reads buf back (it may be cut short). */
static size_t append(char *buf, size_t len, size_t used, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static size_t append(char *buf, size_t len, size_t used, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + (used < len ? used : len), used < len ? len - used : 0, fmt, ap);
    va_end(ap);
    return used + (n > 0 ? (size_t)n : 0);
}

static size_t append_list(char *buf, size_t len, size_t used, const profile_count *c, int n) {
    bool first = true;
    for (int i = 0; i < n; i++) {
        if (!c[i].count) continue;
        used = append(buf, len, used, "%s%s %llu", first ? "" : ", ", c[i].name, (unsigned long long)c[i].count);
        first = false;
    }
    return used;
}

void completeness_summary(const profile *p, char *buf, size_t len) {
    if (!len) return;
    buf[0] = 0;
    uint64_t dropped = completeness_dropped(p), failed = completeness_failed(p);
    size_t used = append(buf, len, 0, "%llu samples; dropped %llu", (unsigned long long)p->total_samples,
                         (unsigned long long)dropped);
    if (dropped) {
        used = append(buf, len, used, " (");
        used = append_list(buf, len, used, p->meta.drops, p->meta.drop_count);
        used = append(buf, len, used, ")");
    }
    double share = p->total_samples ? 100.0 * (double)failed / (double)p->total_samples : 0.0;
    used = append(buf, len, used, "; failed walks %llu (%.2f%%%s", (unsigned long long)failed, share,
                  failed ? ": " : "");
    used = append_list(buf, len, used, p->meta.failures, p->meta.failure_count);
    append(buf, len, used, ")");
}

void completeness_drop_frame(const char *reason, char *buf, size_t len) {
    snprintf(buf, len, "[dropped %s]", reason);
}
