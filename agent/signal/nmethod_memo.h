/* [signal-safe] Header only: inline functions, no calls. */
/*
 * nmethod_memo: the nmethods one walk has met, by code range, so that a frame in one of them is identified
 * without reading the code heap again. Reading an nmethod's identity (pc_cache_identify: the segment map,
 * the block and blob headers, the compile id) touches a few rarely used cache lines per frame, and a deep
 * stack repeats a handful of nmethods hundreds of times (a filter chain, a recursion), at different pcs.
 *
 * Why a range remembered earlier in the same walk is still right: the walk goes over the interrupted
 * thread's live frames, and HotSpot frees an nmethod only once no thread has a frame in it, which it
 * establishes at a safepoint or handshake that this thread, stopped in our handler, is not taking part
 * in. The same argument lets walk_vm reuse an identity for a pc it has already met.
 *
 * Lives on the walker's stack, one per walk; empty when count is 0 (nothing else needs clearing). Full, a
 * new nmethod replaces the oldest one remembered.
 */
#ifndef LIBPROF_NMETHOD_MEMO_H
#define LIBPROF_NMETHOD_MEMO_H

#include "pc_cache.h"

#include <stdbool.h>
#include <stdint.h>

#define NMETHOD_MEMO_SIZE 16

typedef struct {
    uintptr_t code_begin, code_end;
    pc_cache_identity id;
} nmethod_memo_entry;

typedef struct {
    unsigned count, next;   /* entries used; where the next one goes once full */
    nmethod_memo_entry entries[NMETHOD_MEMO_SIZE];
} nmethod_memo;

/* True and *id set when pc is inside the code of an nmethod remembered in m. */
static inline bool nmethod_memo_find(const nmethod_memo *m, uintptr_t pc, pc_cache_identity *id) {
    for (unsigned i = 0; i < m->count; i++) {
        const nmethod_memo_entry *e = &m->entries[i];
        if (pc >= e->code_begin && pc < e->code_end) {
            *id = e->id;
            return true;
        }
    }
    return false;
}

/* Remembers that [code_begin, code_end) is the code of the nmethod 'id'. An empty range is ignored. */
static inline void nmethod_memo_add(nmethod_memo *m, uintptr_t code_begin, uintptr_t code_end,
                                    const pc_cache_identity *id) {
    if (code_begin >= code_end) return;
    unsigned slot = m->count < NMETHOD_MEMO_SIZE ? m->count++ : m->next++ % NMETHOD_MEMO_SIZE;
    m->entries[slot] = (nmethod_memo_entry){code_begin, code_end, *id};
}

#endif
