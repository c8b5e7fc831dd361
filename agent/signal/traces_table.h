/*
 * [signal-safe] traces_table: the layout of a trace table, shared by the halves of traces: traces_put
 * (signal/traces_put.c, in handlers) and creation, reset and reading (traces.c, outside them). Nobody else
 * looks inside.
 *
 * Why these parts: on a virtual machine with shadow paging, touching a page that was not touched recently
 * costs 10-30 us, far more than the instructions of a lookup. So a sample should touch few, dense pages:
 * - records: one per distinct stack, in creation order (a stack's id is its record's index + 1), so the
 *   records in use sit together, however large the table may grow;
 * - index: open addressing over 64-bit words (an index word: the hash's top 32 bits above the record id; 8
 *   bytes where a record takes 40). A stack's probe sequence runs first through a small 'near' region
 *   (64 KB) and then through the large 'far' one: the first few thousand stacks, all a small profile has,
 *   are found and inserted without touching the far region's 2 MB at random. Words are never removed
 *   (until reset), so a stack is in the first empty word of its sequence or nowhere: never in both regions;
 * - cache: a small direct-mapped copy of index words (64 KB), where a hot stack found in the far region is
 *   found again in one warm line.
 * Every cache or index hit is confirmed by the record's full hash.
 */
#ifndef LIBPROF_TRACES_TABLE_H
#define LIBPROF_TRACES_TABLE_H

#include "trace_pack.h"
#include "traces.h"

#include <stdatomic.h>

/* A record's life: taken (FILLING: its hash is set, its frames are being stored), then READY or FAILED
 * (no room for its frames); ABANDONED when its taker found the same stack published by another thread
 * first and could not give the record back (traces_put.c: it is never in the index). */
enum { SLOT_FILLING = 0, SLOT_READY = 1, SLOT_FAILED = 2, SLOT_ABANDONED = 3 };
#define MAX_PROBES 64          /* in the far region */
#define NEAR_PROBES 16         /* in the near region: two cache lines */
#define TRACES_CACHE_WORDS 8192u   /* 64 KB: more than the distinct stacks that are hot at any time */
#define TRACES_NEAR_WORDS 8192u    /* 64 KB */

typedef struct {   /* 40 bytes; at 100K stacks the records take 4 MB */
    _Atomic uint64_t hash;      /* the stack's full hash (never 0), set before the record is in the index */
    uint32_t frames_at;         /* the first word of its frames in the arena (trace_pack.h; < 2^32 words) */
    uint32_t depth;
    uint32_t tid;
    _Atomic uint8_t state;
    uint8_t key_event, key_state;   /* trace_key */
    uint8_t pad;
    _Atomic uint64_t samples;
    _Atomic uint64_t weight;
} trace_record;

struct trace_table {
    trace_record *records;      /* in creation order */
    uint32_t record_capacity;   /* 3/4 of the index: probe sequences stay short in the handler */
    _Atomic uint64_t *lookup;   /* one mapping: the cache, then the near and far regions of the index */
    size_t lookup_words;
    _Atomic uint64_t *cache;    /* index words by the hash's low bits, 0 = empty */
    _Atomic uint64_t *near;     /* index words (traces_index_word), 0 = empty */
    _Atomic uint64_t *far;
    size_t cache_mask, near_mask, mask;   /* words - 1 of the cache, the near and the far region */
    uint64_t *words;            /* the frame arena: frames packed by trace_pack.h, one word each (3 if escaped) */
    size_t word_capacity;
    /* Written at every new stack: on a line of their own, away from what every sample reads above. */
    _Alignas(64) _Atomic uint64_t records_used;   /* records taken (may pass the capacity by a few failed takes) */
    _Atomic uint64_t abandoned;      /* records taken, then abandoned */
    _Atomic uint64_t words_used;
};

/* What the index and the cache hold for the stack with hash h in record 'id' (> 0, so never 0). */
static inline uint64_t traces_index_word(uint64_t h, uint32_t id) {
    return (h & 0xffffffff00000000ULL) | id;
}

/* Records that may hold a stack: those taken, at most the capacity. */
static inline uint32_t traces_records_taken(const trace_table *t) {
    uint64_t n = atomic_load_explicit(&((trace_table *)t)->records_used, memory_order_acquire);
    return n < t->record_capacity ? (uint32_t)n : t->record_capacity;
}

/* The hash a stack is stored under (never 0); the unit tests use it to build stacks whose hashes collide. */
uint64_t traces_stack_hash(const trace_frame *frames, uint32_t depth, const trace_key *key);

#endif
