/* [signal-safe] Runs in signal handlers: the whole file (unwind_cache.h); unwind_cache_clear is for tests. */
/*
 * unwind_cache: a slot is four atomic words read and written relaxed: the sequence (odd while a writer fills
 * the slot), the pc, the range set, and the row packed (cfa_offset, fp_offset, cfa_reg, ra_slot). 32 bytes, two slots
 * per cache line: a lookup touches one line. A reader copies the words between two reads of the sequence and
 * keeps the copy only when both are the same even number; nobody waits.
 */
#include "unwind_cache.h"

#include "seq_slot.h"

#include <stdatomic.h>

enum { W_SEQ, W_PC, W_SET, W_ROW, WORDS };

static _Atomic uint64_t slots[UNWIND_CACHE_SLOTS][WORDS] __attribute__((aligned(64)));

unsigned unwind_cache_slot(uintptr_t pc) {
    return (unsigned)(((uint64_t)pc * 0x9e3779b97f4a7c15ULL) >> 54) & (UNWIND_CACHE_SLOTS - 1);
}

static uint64_t pack(const unwind_row *r) {
    return (uint64_t)(uint32_t)r->cfa_offset | (uint64_t)(uint16_t)r->fp_offset << 32 | (uint64_t)r->cfa_reg << 48 |
           (uint64_t)(uint8_t)r->ra_slot << 56;
}

bool unwind_cache_get(uintptr_t pc, const void *set, unwind_row *out) {
    if (!set) return false;  /* an empty slot's words are zeros: no set is never an entry */
    _Atomic uint64_t *s = slots[unwind_cache_slot(pc)];
    uint64_t seq = seq_slot_read_begin(&s[W_SEQ]);
    if ((seq & 1) || atomic_load_explicit(&s[W_PC], memory_order_relaxed) != pc ||
        atomic_load_explicit(&s[W_SET], memory_order_relaxed) != (uint64_t)(uintptr_t)set)
        return false;
    uint64_t row = atomic_load_explicit(&s[W_ROW], memory_order_relaxed);
    if (!seq_slot_read_valid(&s[W_SEQ], seq)) return false;
    *out = (unwind_row){.pc_offset = 0, .cfa_offset = (int32_t)(uint32_t)row,
                        .fp_offset = (int16_t)(uint16_t)(row >> 32), .cfa_reg = (uint8_t)(row >> 48),
                        .ra_slot = (int8_t)(uint8_t)(row >> 56)};
    return true;
}

void unwind_cache_put(uintptr_t pc, const void *set, const unwind_row *row) {
    if (!set) return;
    _Atomic uint64_t *s = slots[unwind_cache_slot(pc)];
    uint64_t seq;
    if (!seq_slot_write_begin(&s[W_SEQ], &seq)) return;
    atomic_store_explicit(&s[W_PC], pc, memory_order_relaxed);
    atomic_store_explicit(&s[W_SET], (uint64_t)(uintptr_t)set, memory_order_relaxed);
    atomic_store_explicit(&s[W_ROW], pack(row), memory_order_relaxed);
    seq_slot_write_end(&s[W_SEQ], seq);
}

void unwind_cache_clear(void) {
    for (unsigned i = 0; i < UNWIND_CACHE_SLOTS; i++)
        for (int w = 0; w < WORDS; w++) atomic_store(&slots[i][w], 0);
}
