/*
 * [signal-safe] trace_pack: the stored form of a frame in a trace table's arena (traces_table.h). A
 * trace_frame is 16 bytes; stored frames are most of the agent's memory (100K distinct stacks of ~48
 * frames: 78 MB), so the arena keeps each frame in one 64-bit word when it fits, which it does for every
 * frame the agent records in practice, and in three words (an escape word, then the frame as it is) when
 * not. Packing happens only when a new distinct stack is stored; hashing and lookups use the frames as
 * recorded, so the handler's cost for a known stack does not change.
 *
 * One word: kind in the top 4 bits (frame_kind values 0..14; 15 is the escape), then by kind:
 *   Java kinds (jmethodID, bci): bit 59 'aligned', bci + 4 in bits 44..58 (bci -4 .. 32763), and the id in
 *     bits 0..43: as it is (ids below 2^44), or shifted right by 3 when 'aligned' (8-byte aligned ids
 *     below 2^47: HotSpot's jmethodIDs are pointers to aligned slots in user space);
 *   other kinds (bci 0): the id's low 60 bits, sign-extended when read (kernel addresses are negative).
 */
#ifndef LIBPROF_TRACE_PACK_H
#define LIBPROF_TRACE_PACK_H

#include "frame.h"

#include <stdint.h>

#define TRACE_PACK_ESCAPE 15u
#define TRACE_PACK_MAX_WORDS 3u

static inline uint64_t trace_pack_low_bits(uint64_t v, unsigned bits) {
    return v & ((1ULL << bits) - 1);
}

/* The one-word form of f, or 0 when it does not fit (0 is never a packed frame: its kind would be
 * FRAME_JAVA with id 0 and bci -4, which no walk records; such a frame is escaped). */
static inline uint64_t trace_pack_word(const trace_frame *f) {
    if (f->kind < 0 || (uint32_t)f->kind >= TRACE_PACK_ESCAPE) return 0;
    uint64_t word = (uint64_t)(uint32_t)f->kind << 60;
    if (frame_kind_is_java(f->kind)) {
        int64_t biased = (int64_t)f->bci + 4;
        if (biased < 0 || biased >= (1 << 15)) return 0;
        word |= (uint64_t)biased << 44;
        if (f->id < (1ULL << 44)) word |= f->id;
        else if ((f->id & 7) == 0 && f->id < (1ULL << 47)) word |= (1ULL << 59) | (f->id >> 3);
        else return 0;
    } else {
        if (f->bci != 0 || (uint64_t)((int64_t)(f->id << 4) >> 4) != f->id) return 0;
        word |= trace_pack_low_bits(f->id, 60);
    }
    return word;
}

/* Words f takes in the arena: 1, or TRACE_PACK_MAX_WORDS when escaped. */
static inline uint32_t trace_pack_words(const trace_frame *f) {
    return trace_pack_word(f) ? 1 : TRACE_PACK_MAX_WORDS;
}

/* Writes f's stored form at out; returns the words written. */
static inline uint32_t trace_pack(const trace_frame *f, uint64_t *out) {
    uint64_t word = trace_pack_word(f);
    if (word) {
        out[0] = word;
        return 1;
    }
    out[0] = (uint64_t)TRACE_PACK_ESCAPE << 60;
    out[1] = f->id;
    out[2] = (uint64_t)(uint32_t)f->bci | (uint64_t)(uint32_t)f->kind << 32;
    return TRACE_PACK_MAX_WORDS;
}

/* Reads one stored frame at in into f; returns the words it took. */
static inline uint32_t trace_unpack(const uint64_t *in, trace_frame *f) {
    uint64_t word = in[0];
    uint32_t kind = (uint32_t)(word >> 60);
    if (kind == TRACE_PACK_ESCAPE) {
        *f = (trace_frame){in[1], (int32_t)(uint32_t)in[2], (int32_t)(uint32_t)(in[2] >> 32)};
        return TRACE_PACK_MAX_WORDS;
    }
    if (frame_kind_is_java((int)kind)) {
        uint64_t id = trace_pack_low_bits(word, 44);
        *f = (trace_frame){(word >> 59) & 1 ? id << 3 : id, (int32_t)trace_pack_low_bits(word >> 44, 15) - 4,
                           (int32_t)kind};
    } else {
        *f = (trace_frame){(uint64_t)((int64_t)(word << 4) >> 4), 0, (int32_t)kind};
    }
    return 1;
}

#endif
