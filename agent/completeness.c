#include "completeness.h"

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

/* Appends with snprintf's truncation rules: 'used' may pass len, later appends then write nothing. */
static size_t append_list(char *buf, size_t len, size_t used, const profile_count *c, int n) {
    for (int i = 0; i < n; i++) {
        if (!c[i].count) continue;
        used += (size_t)snprintf(buf + (used < len ? used : len), used < len ? len - used : 0, "%s%s %llu",
                                 used && buf[used - 1] != '(' && buf[used - 1] != ' ' ? ", " : "", c[i].name,
                                 (unsigned long long)c[i].count);
    }
    return used;
}

void completeness_summary(const profile *p, char *buf, size_t len) {
    if (!len) return;
    uint64_t dropped = completeness_dropped(p), failed = completeness_failed(p);
    size_t used = (size_t)snprintf(buf, len, "%llu samples; dropped %llu", (unsigned long long)p->total_samples,
                                   (unsigned long long)dropped);
    if (dropped) {
        used += (size_t)snprintf(buf + (used < len ? used : len), used < len ? len - used : 0, " (");
        used = append_list(buf, len, used, p->meta.drops, p->meta.drop_count);
        used += (size_t)snprintf(buf + (used < len ? used : len), used < len ? len - used : 0, ")");
    }
    double share = p->total_samples ? 100.0 * (double)failed / (double)p->total_samples : 0.0;
    used += (size_t)snprintf(buf + (used < len ? used : len), used < len ? len - used : 0,
                             "; failed walks %llu (%.2f%%%s", (unsigned long long)failed, share, failed ? ": " : "");
    used = append_list(buf, len, used, p->meta.failures, p->meta.failure_count);
    snprintf(buf + (used < len ? used : len), used < len ? len - used : 0, ")");
}

void completeness_drop_frame(const char *reason, char *buf, size_t len) {
    snprintf(buf, len, "[dropped %s]", reason);
}
