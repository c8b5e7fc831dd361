#include "profile_diff.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double scale_of(const profile *p, bool per_second) {
    if (per_second) return 1e9 / (double)p->meta.duration_ns;
    uint64_t total = profile_total_value(p);
    return total ? 100.0 / (double)total : 0.0;
}

/* Adds p's stacks to the union. The union's counters carry which stack of p each union stack is: the new
 * profile's stack i adds i + 1 to 'samples', the base's adds i + 1 to 'weight'. Each stack appears once in
 * each (merged) profile, so after both the counters name them exactly. */
static int add_all(profile *u, const profile *p, bool as_base) {
    uint32_t *ids = NULL;
    size_t cap = 0;
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < p->stack_count; i++) {
        const profile_stack *s = &p->stacks[i];
        if (s->depth > cap) {
            cap = s->depth * 2;
            uint32_t *grown = realloc(ids, cap * sizeof(uint32_t));
            if (!grown) {
                rc = -1;
                break;
            }
            ids = grown;
        }
        for (uint32_t f = 0; f < s->depth && rc == 0; f++) {
            ids[f] = profile_intern(u, p->names[s->frames[f]], (frame_type)p->types[s->frames[f]]);
            if (ids[f] == UINT32_MAX) rc = -1;
        }
        if (rc == 0) rc = profile_add(u, ids, s->depth, as_base ? 0 : i + 1, as_base ? i + 1 : 0);
    }
    free(ids);
    return rc;
}

int profile_diff_build(const profile *base, const profile *next, profile_diff *d) {
    memset(d, 0, sizeof(*d));
    profile_init(&d->stacks);
    d->per_second = base->meta.duration_ns && next->meta.duration_ns;
    const char *unit = next->meta.total ? profile_value_unit(next) : "samples";
    if (d->per_second) snprintf(d->unit, sizeof(d->unit), "%s/s", unit);
    else snprintf(d->unit, sizeof(d->unit), "%% of %s", unit);
    if (add_all(&d->stacks, next, false) || add_all(&d->stacks, base, true)) goto oom;
    size_t n = d->stacks.stack_count ? d->stacks.stack_count : 1;
    d->base = calloc(n, sizeof(double));
    d->next = calloc(n, sizeof(double));
    if (!d->base || !d->next) goto oom;
    double base_scale = scale_of(base, d->per_second), next_scale = scale_of(next, d->per_second);
    for (size_t i = 0; i < d->stacks.stack_count; i++) {
        const profile_stack *u = &d->stacks.stacks[i];
        if (u->samples) d->next[i] = (double)profile_value(next, &next->stacks[u->samples - 1]) * next_scale;
        if (u->weight) d->base[i] = (double)profile_value(base, &base->stacks[u->weight - 1]) * base_scale;
        d->base_total += d->base[i];
        d->next_total += d->next[i];
    }
    return 0;
oom:
    profile_diff_free(d);
    return -1;
}

void profile_diff_free(profile_diff *d) {
    profile_free(&d->stacks);
    free(d->base);
    free(d->next);
    d->base = d->next = NULL;
}

diff_change profile_diff_change(double base, double next) {
    if (base == 0 && next > 0) return DIFF_ADDED;
    if (next == 0 && base > 0) return DIFF_REMOVED;
    /* Equal within rounding of the normalisation. */
    if (fabs(next - base) <= 1e-9 * fmax(fabs(base), fabs(next))) return DIFF_SAME;
    return next > base ? DIFF_GROWN : DIFF_SHRUNK;
}

const char *profile_diff_change_name(diff_change c) {
    static const char *const names[] = {"same", "added", "grown", "shrunk", "removed"};
    return (unsigned)c <= DIFF_REMOVED ? names[c] : "?";
}
