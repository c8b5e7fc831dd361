/* [signal-safe] Header only: inline functions, no calls. */
/*
 * seq_slot: the sequence-lock protocol of the handlers' caches (pc_cache, unwind_cache). A slot's first word
 * is its sequence, odd while a writer fills the slot; its other words are atomics read and written relaxed.
 * A writer that finds the slot being written skips its store; a reader keeps what it copied only when the
 * sequence read before and after is the same even number. Nobody waits, so a handler interrupting a writer
 * on its own thread never deadlocks.
 */
#ifndef LIBPROF_SEQ_SLOT_H
#define LIBPROF_SEQ_SLOT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* Claims the slot for writing: false (skip the store) when another writer holds it. */
static inline bool seq_slot_write_begin(_Atomic uint64_t *seq_word, uint64_t *seq) {
    *seq = atomic_load_explicit(seq_word, memory_order_relaxed);
    if ((*seq & 1) || !atomic_compare_exchange_strong_explicit(seq_word, seq, *seq + 1, memory_order_acquire,
                                                               memory_order_relaxed))
        return false;
    /* The odd sequence is visible before any word changes. */
    atomic_thread_fence(memory_order_release);
    return true;
}

static inline void seq_slot_write_end(_Atomic uint64_t *seq_word, uint64_t seq) {
    atomic_store_explicit(seq_word, seq + 2, memory_order_release);
}

/* The sequence a reader starts from; odd means being written (no entry to read). */
static inline uint64_t seq_slot_read_begin(_Atomic uint64_t *seq_word) {
    return atomic_load_explicit(seq_word, memory_order_acquire);
}

/* True when nothing was written while the reader copied the words. */
static inline bool seq_slot_read_valid(_Atomic uint64_t *seq_word, uint64_t seq) {
    /* Everything read before happens before the second read of the sequence. */
    atomic_thread_fence(memory_order_acquire);
    return atomic_load_explicit(seq_word, memory_order_relaxed) == seq;
}

#endif
