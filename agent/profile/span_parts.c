#include "span_parts.h"

#include "array_grow.h"
#include "u64map.h"

#include <stdlib.h>
#include <string.h>

/* The first span named as span 'i' (spans of one tag are one label), through a map of name hashes. */
static uint32_t first_of_tag(const profile *p, u64map *by_name, uint32_t i) {
    const char *name = p->spans[i].name;
    uint64_t h = u64map_hash_bytes(name, strlen(name)), found;
    if (u64map_get(by_name, h, &found)) return strcmp(p->spans[found - 1].name, name) == 0 ? (uint32_t)(found - 1) : i;
    return u64map_put(by_name, h, (uint64_t)i + 1) ? UINT32_MAX : i;
}

static int by_stack_span(const void *a, const void *b) {
    const span_part *x = a, *y = b;
    if (x->stack != y->stack) return x->stack < y->stack ? -1 : 1;
    return x->span < y->span ? -1 : x->span > y->span;
}

int span_parts_build(const profile *p, span_part **parts, size_t *n) {
    *parts = NULL;
    *n = 0;
    size_t capacity = 0;
    u64map by_name, by_part;   /* name hash -> first span + 1; (stack, span) -> part + 1 */
    u64map_init(&by_name);
    u64map_init(&by_part);
    int rc = 0;
    for (size_t i = 0; i < p->tick_count && rc == 0; i++) {
        const profile_tick *t = &p->ticks[i];
        if (!t->span || t->span > p->span_count) continue;
        uint32_t span = first_of_tag(p, &by_name, t->span - 1);
        uint64_t key = ((uint64_t)t->stack << 32 | span) + 1, at;
        if (span == UINT32_MAX) rc = -1;
        else if (u64map_get(&by_part, key, &at)) (*parts)[at - 1].samples++;
        else if (array_grow((void **)parts, sizeof(span_part), *n + 1, &capacity) ||
                 u64map_put(&by_part, key, *n + 1))
            rc = -1;
        else (*parts)[(*n)++] = (span_part){t->stack, span, 1};
    }
    u64map_free(&by_name);
    u64map_free(&by_part);
    if (rc) {
        free(*parts);
        *parts = NULL;
        *n = 0;
        return -1;
    }
    if (*n) qsort(*parts, *n, sizeof(span_part), by_stack_span);
    return 0;
}
