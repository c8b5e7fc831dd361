/*
 * profile_reshape: see profile_reshape.h. The grain is applied per stack as read (before --skip merges
 * stacks), largest stack first, with the rounding remainder carried from stack to stack: the
 * coarsened total stays within one grain of the original however many small stacks there are, while a
 * stack of at least one grain is always kept. Counts stay in samples (async-profiler's jfrconv writes
 * them in grains), so times, shares and the per-second figures of --diff keep their meaning; each stack's
 * weight is scaled with its count.
 */
#include "profile_reshape.h"

#include "profile_classify.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

bool profile_reshape_wanted(const profile_reshape_options *o) {
    return o->grain > 0 || o->classify || o->skip > 0;
}

/* A stack's count in whole grains, the remainder carried in *carry. */
static uint64_t grains(uint64_t samples, double grain, double *carry) {
    double exact = (double)samples / grain + *carry;
    double whole = floor(exact + 1e-9);
    *carry = exact - whole;
    return (uint64_t)whole;
}

static uint32_t copy_name(profile *out, const profile *in, uint32_t id) {
    return profile_intern(out, in->names[id], (frame_type)in->types[id]);
}

/* One stack of 'in' into 'out' under the options, with 'samples' and 'weight'. */
static int add_reshaped(profile *out, const profile *in, const profile_stack *s, const profile_reshape_options *o,
                        uint64_t samples, uint64_t weight, uint32_t *ids) {
    uint32_t n = 0, threads = 0;
    while (threads < s->depth && in->types[s->frames[threads]] == FTYPE_THREAD) threads++;
    /* A stack classified as it was read (jfrconv's JFR input, with each frame's own type) keeps its category. */
    bool classified = threads < s->depth && profile_classify_is_category(in->names[s->frames[threads]]);
    for (uint32_t i = 0; i < s->depth; i++) {
        if (o->classify && !classified && i == threads) {
            const char *category = profile_classify(in, s->frames, s->depth);
            if ((ids[n++] = profile_intern(out, category, FTYPE_MARKER)) == UINT32_MAX) return -1;
        }
        if ((ids[n++] = copy_name(out, in, s->frames[i])) == UINT32_MAX) return -1;
    }
    uint32_t skip = (uint32_t)o->skip < n ? (uint32_t)o->skip : n;
    if (skip == n) {
        ids[0] = profile_intern(out, PROFILE_RESHAPE_ALL_SKIPPED, FTYPE_MARKER);
        if (ids[0] == UINT32_MAX) return -1;
        return profile_add(out, ids, 1, samples, weight);
    }
    n -= skip;
    ids += skip;
    for (uint32_t i = 0; o->reverse && i < n / 2; i++) {
        uint32_t t = ids[i];
        ids[i] = ids[n - 1 - i];
        ids[n - 1 - i] = t;
    }
    return profile_add(out, ids, n, samples, weight);
}

int profile_reshape(const profile *in, const profile_reshape_options *o, profile *out) {
    profile_init(out);
    out->meta = in->meta;
    uint32_t deepest = 0;
    for (size_t i = 0; i < in->stack_count; i++) if (in->stacks[i].depth > deepest) deepest = in->stacks[i].depth;
    uint32_t *ids = malloc(((size_t)deepest + 2) * sizeof(uint32_t));
    int rc = ids ? 0 : -1;
    double carry = 0;
    /* Largest first: the order decides which of the small stacks the carried remainder keeps. */
    bool coarsen = o->grain > 0 && in->stack_count > 0;
    size_t *order = coarsen ? profile_sorted_stacks(in) : NULL;
    if (coarsen && !order) rc = -1;
    for (size_t i = 0; rc == 0 && i < in->stack_count; i++) {
        const profile_stack *s = &in->stacks[order ? order[i] : i];
        uint64_t samples = s->samples, weight = s->weight;
        if (o->grain > 0 && s->samples) {
            uint64_t kept = grains(s->samples, o->grain, &carry);
            if (!kept) continue;
            samples = (uint64_t)llround((double)kept * o->grain);
            weight = (uint64_t)((unsigned __int128)s->weight * samples / s->samples);
        }
        rc = add_reshaped(out, in, s, o, samples, weight, ids);
    }
    free(ids);
    free(order);
    if (rc) profile_free(out);
    return rc;
}
