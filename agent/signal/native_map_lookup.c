/*
 * [signal-safe] native_map_lookup: the signal-safe searches of native_map. The range set is reached through one atomic
 * pointer load (acquire, pairing with the release store of native_map_refresh) and is never modified or
 * freed after it is published, nor are the objects and tables it points to: a handler that loaded the
 * pointer just before a refresh keeps reading valid memory. Rows found are remembered per pc and set in
 * unwind_cache. No lock, no allocation, no system call.
 */
#include "native_map_ranges.h"
#include "unwind_cache.h"

/* Written by native_map_refresh (native_map.c), read here. */
_Atomic(native_range_set *) native_map_published;

static const native_object *lookup_in(const native_range_set *set, uintptr_t pc) {
    if (!set) return NULL;
    size_t lo = 0, hi = set->count;  /* lo = number of ranges starting at or below pc */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (set->ranges[mid].start <= pc) lo = mid + 1;
        else hi = mid;
    }
    if (lo == 0 || pc >= set->ranges[lo - 1].end) return NULL;
    return set->ranges[lo - 1].object;
}

const native_object *native_map_lookup(uintptr_t pc) {
    return lookup_in(atomic_load_explicit(&native_map_published, memory_order_acquire), pc);
}

bool native_map_contains(uintptr_t pc) { return native_map_lookup(pc) != NULL; }

const unwind_row *native_map_object_unwind(const native_object *o, uintptr_t pc) {
    if (!o || !o->unwind || pc < o->bias) return NULL;
    return dwarf_find(o->unwind, pc - o->bias);
}

const unwind_row *native_map_unwind(uintptr_t pc) {
    return native_map_object_unwind(native_map_lookup(pc), pc);
}

native_row_found native_map_row(uintptr_t pc, unwind_row *out) {
    const native_range_set *set = atomic_load_explicit(&native_map_published, memory_order_acquire);
    if (unwind_cache_get(pc, set, out)) return NATIVE_ROW;
    const native_object *o = lookup_in(set, pc);
    if (!o) return NATIVE_NO_OBJECT;
    const unwind_row *row = native_map_object_unwind(o, pc);
    if (!row) return NATIVE_NO_ROW;
    *out = *row;
    unwind_cache_put(pc, set, row);
    return NATIVE_ROW;
}

bool native_map_step(uintptr_t *pc, uintptr_t *sp, uintptr_t *fp, bool leaf,
                     bool (*read_word)(uintptr_t addr, uintptr_t *out)) {
    unwind_row row;
    return native_map_row(leaf ? *pc : *pc - 1, &row) == NATIVE_ROW && dwarf_step(&row, pc, sp, fp, read_word);
}
