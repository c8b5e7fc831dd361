/* [signal-safe] Runs in signal handlers: the whole file (pc_cache.h); pc_cache_clear is for tests and set-up. */
/*
 * pc_cache: a slot is PC_CACHE_WORDS words, each an atomic read and written relaxed, the first one the
 * slot's sequence number (odd while a writer fills it). A reader copies the words between two reads of
 * the sequence and keeps the copy only when both are the same even number, so it never sees half of one
 * value and half of another; a reader or writer never waits. The words: pc, the identity (blob, method,
 * compile id), the blob's stepping facts (code range, frame size, frame-complete pc), the frame count, and
 * two words per frame (id; bci and kind).
 */
#include "pc_cache.h"

#include "nmethod_scopes.h"
#include "seq_slot.h"

#include <stdatomic.h>

enum { W_SEQ, W_PC, W_BLOB, W_METHOD, W_COMPILE_ID, W_CODE_BEGIN, W_CODE_END, W_FRAME_BYTES, W_FRAME_COMPLETE,
       W_COUNT, W_FRAMES };
#define PC_CACHE_WORDS (W_FRAMES + 2 * PC_CACHE_FRAMES)
#define COUNT_MASK 0xFFFFFFFFULL
#define LEAF_ENTRY (1ULL << 32)   /* in W_COUNT: stored by pc_cache_put_leaf */

static _Atomic uint64_t slots[PC_CACHE_SLOTS][PC_CACHE_WORDS];

unsigned pc_cache_slot(uintptr_t pc) {
    return (unsigned)(((uint64_t)pc * 0x9e3779b97f4a7c15ULL) >> 52) & (PC_CACHE_SLOTS - 1);
}

bool pc_cache_identify(uintptr_t pc, pc_cache_identity *id) {
    return codeblob_nmethod_at(pc, &id->blob, &id->method) && nmethod_scopes_compile_id(id->blob, &id->compile_id);
}

static uint64_t word(_Atomic uint64_t *s, int i) {
    return atomic_load_explicit(&s[i], memory_order_relaxed);
}

static void set(_Atomic uint64_t *s, int i, uint64_t v) {
    atomic_store_explicit(&s[i], v, memory_order_relaxed);
}

void pc_cache_prefetch(uintptr_t pc) {
    const char *s = (const char *)slots[pc_cache_slot(pc)];
    for (size_t at = 0; at < sizeof(slots[0]); at += 64) __builtin_prefetch(s + at);
    __builtin_prefetch(s + sizeof(slots[0]) - 1);
}

bool pc_cache_get(uintptr_t pc, const pc_cache_identity *id, pc_cache_value *out) {
    _Atomic uint64_t *s = slots[pc_cache_slot(pc)];
    uint64_t seq = seq_slot_read_begin(&s[W_SEQ]);
    if ((seq & 1) || word(s, W_PC) != pc || word(s, W_BLOB) != id->blob || word(s, W_METHOD) != id->method ||
        word(s, W_COMPILE_ID) != (uint64_t)id->compile_id)
        return false;
    uint64_t count = word(s, W_COUNT) & COUNT_MASK;
    if (count == 0 || count > PC_CACHE_FRAMES) return false;
    out->blob = (codeblob){.kind = BLOB_NMETHOD, .blob = id->blob, .method = id->method,
                           .code_begin = word(s, W_CODE_BEGIN), .code_end = word(s, W_CODE_END),
                           .frame_bytes = word(s, W_FRAME_BYTES), .frame_complete = word(s, W_FRAME_COMPLETE)};
    out->count = (int)count;
    for (uint64_t i = 0; i < count; i++) {
        uint64_t packed = word(s, W_FRAMES + 2 * (int)i + 1);
        out->frames[i] = (trace_frame){word(s, W_FRAMES + 2 * (int)i), (int32_t)(uint32_t)packed,
                                       (int32_t)(uint32_t)(packed >> 32)};
    }
    return seq_slot_read_valid(&s[W_SEQ], seq);
}

static void put(uintptr_t pc, const pc_cache_identity *id, const pc_cache_value *v, uint64_t leaf) {
    if (v->count <= 0 || v->count > PC_CACHE_FRAMES) return;
    _Atomic uint64_t *s = slots[pc_cache_slot(pc)];
    /* Read outside the sequence lock: a race at worst lets one leaf replace a return address. */
    if (leaf && word(s, W_PC) && !(word(s, W_COUNT) & LEAF_ENTRY)) return;
    uint64_t seq;
    if (!seq_slot_write_begin(&s[W_SEQ], &seq)) return;
    set(s, W_PC, pc);
    set(s, W_BLOB, id->blob);
    set(s, W_METHOD, id->method);
    set(s, W_COMPILE_ID, (uint64_t)id->compile_id);
    set(s, W_CODE_BEGIN, v->blob.code_begin);
    set(s, W_CODE_END, v->blob.code_end);
    set(s, W_FRAME_BYTES, v->blob.frame_bytes);
    set(s, W_FRAME_COMPLETE, v->blob.frame_complete);
    set(s, W_COUNT, (uint64_t)v->count | leaf);
    for (int i = 0; i < v->count; i++) {
        set(s, W_FRAMES + 2 * i, v->frames[i].id);
        set(s, W_FRAMES + 2 * i + 1, (uint64_t)(uint32_t)v->frames[i].bci | (uint64_t)(uint32_t)v->frames[i].kind << 32);
    }
    seq_slot_write_end(&s[W_SEQ], seq);
}

void pc_cache_put(uintptr_t pc, const pc_cache_identity *id, const pc_cache_value *v) {
    put(pc, id, v, 0);
}

void pc_cache_put_leaf(uintptr_t pc, const pc_cache_identity *id, const pc_cache_value *v) {
    put(pc, id, v, LEAF_ENTRY);
}

void pc_cache_clear(void) {
    for (unsigned i = 0; i < PC_CACHE_SLOTS; i++)
        for (int w = 0; w < PC_CACHE_WORDS; w++) atomic_store(&slots[i][w], 0);
}
