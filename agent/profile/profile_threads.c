#include "profile_threads.h"

#include "u64map.h"

#include <stdlib.h>
#include <string.h>

uint32_t profile_threads_first_frame(const profile *p, const profile_stack *s) {
    return s->depth && p->types[s->frames[0]] == FTYPE_THREAD ? 1 : 0;
}

int profile_threads_build(const profile *p, profile_threads *t) {
    memset(t, 0, sizeof(*t));
    size_t n = p->stack_count ? p->stack_count : 1;
    t->of_stack = malloc(n * sizeof(uint32_t));
    t->name = malloc(n * sizeof(uint32_t));
    u64map groups;   /* thread frame name id (or ALL) + 1 (key 0 is reserved) -> group + 1 */
    u64map_init(&groups);
    int rc = t->of_stack && t->name ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < p->stack_count; i++) {
        const profile_stack *s = &p->stacks[i];
        uint32_t key = profile_threads_first_frame(p, s) ? s->frames[0] : PROFILE_THREADS_ALL;
        uint64_t group;
        if (!u64map_get(&groups, (uint64_t)key + 1, &group)) {
            group = t->count + 1;
            t->name[t->count++] = key;
            if (u64map_put(&groups, (uint64_t)key + 1, group)) rc = -1;
        }
        t->of_stack[i] = (uint32_t)(group - 1);
    }
    u64map_free(&groups);
    /* No samples (an idle loop= period): one empty "all threads" group, so that a viewer opens the file as an
     * empty profile rather than refusing one with no profile or thread at all. */
    if (rc == 0 && t->count == 0) t->name[t->count++] = PROFILE_THREADS_ALL;
    if (rc) profile_threads_free(t);
    return rc;
}

void profile_threads_free(profile_threads *t) {
    free(t->of_stack);
    free(t->name);
    memset(t, 0, sizeof(*t));
}

const char *profile_threads_name(const profile *p, const profile_threads *t, uint32_t group) {
    return t->name[group] == PROFILE_THREADS_ALL ? "all threads" : p->names[t->name[group]];
}
