/*
 * [signal-safe] traces_put: the insertion half of traces (traces.h), called by signal handlers. A stack is
 * looked up in the cache, then in the index's near and far regions (traces_table.h), each hit confirmed by
 * the record's full hash.
 * A new stack takes the next record (one atomic add), sets the record's hash, and publishes the record with
 * a CAS of an empty index word (release); it then stores the frames and marks the record ready (release).
 * A thread that meets a record still being filled adds its count anyway: the stack is the same (same hash),
 * only the frames are not visible yet. Nothing here waits for another thread (the other thread could be the
 * one this handler interrupted): a thread that loses the CAS to the same stack gives its record back (or
 * leaves it as a hole when it cannot) and counts into the winner's. The records stop at 3/4 of the index so probe sequences stay short.
 */
#include "traces_table.h"


static uint64_t mix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

/* One frame into a pair of chains: one over frame ids, one over bcis and kinds. */
static inline void absorb(uint64_t *ids, uint64_t *places, const trace_frame *f) {
    *ids = mix(*ids ^ f->id);
    *places = mix(*places ^ ((uint64_t)(uint32_t)f->bci << 8) ^ (uint64_t)f->kind);
}

static uint64_t rotate(uint64_t x, unsigned bits) {
    return x << bits | x >> (64 - bits);
}

/* Four chains mixed once per frame each: ids and places (bci, kind) of the even frames, and of the odd ones.
 * The stack is hashed as fully as by one chain mixing twice per frame, but the chains do not wait for each
 * other, so deep stacks hash several times faster (docs/performance.md). The seeds differ per chain and hold the
 * key and the depth, so each chain's position in the stack is fixed. */
uint64_t traces_stack_hash(const trace_frame *frames, uint32_t depth, const trace_key *key) {
    uint64_t seed = mix(((uint64_t)key->tid << 32) | ((uint64_t)key->event << 24) | ((uint64_t)key->state << 16) | depth);
    uint64_t ids0 = seed, places0 = mix(seed ^ 0x9e3779b97f4a7c15ULL), ids1 = mix(seed ^ 0x7f4a7c159e3779b9ULL),
             places1 = mix(seed ^ 0x3c6ef372fe94f82bULL);
    uint32_t i = 0;
    for (; i + 1 < depth; i += 2) {
        absorb(&ids0, &places0, &frames[i]);
        absorb(&ids1, &places1, &frames[i + 1]);
    }
    if (i < depth) absorb(&ids0, &places0, &frames[i]);
    uint64_t h = mix(ids0 ^ rotate(places0, 32) ^ rotate(ids1, 16) ^ rotate(places1, 48));
    return h ? h : 1;
}

static uint32_t id_of(const trace_table *t, const trace_record *r) {
    return (uint32_t)(r - t->records) + 1;
}

/* The record an index or cache word names when it holds the stack with hash h, else NULL. */
static trace_record *confirmed(trace_table *t, uint64_t word, uint64_t h) {
    uint32_t id = (uint32_t)word;
    if (id == 0 || (word ^ h) >> 32 || id > t->record_capacity) return NULL;
    trace_record *r = &t->records[id - 1];
    return atomic_load_explicit(&r->hash, memory_order_acquire) == h ? r : NULL;
}

/* The next record for a new stack with hash h, or NULL when none is left. */
static trace_record *take_record(trace_table *t, uint64_t h) {
    if (atomic_load_explicit(&t->records_used, memory_order_relaxed) >= t->record_capacity) return NULL;
    uint64_t n = atomic_fetch_add_explicit(&t->records_used, 1, memory_order_relaxed);
    if (n >= t->record_capacity) return NULL;
    trace_record *r = &t->records[n];
    atomic_store_explicit(&r->hash, h, memory_order_release);
    return r;
}

/* Gives back a record taken for a stack that another thread published first. When no record was taken
 * after it, the count of records taken steps back over it (it was never indexed, so nobody can reach it);
 * else it stays, marked, a hole that readers skip. Records are only ever given back from the top, so the
 * count equals this record's index + 1 only when every record taken after it was given back too. */
static void abandon(trace_table *t, trace_record *r) {
    uint64_t top = (uint64_t)(r - t->records) + 1;
    if (atomic_compare_exchange_strong_explicit(&t->records_used, &top, top - 1, memory_order_relaxed,
                                                memory_order_relaxed))
        return;
    atomic_store_explicit(&r->state, SLOT_ABANDONED, memory_order_release);
    atomic_fetch_add_explicit(&t->abandoned, 1, memory_order_relaxed);
}

/* One lookup in the index: the stack's hash, and the record taken for it if it turns out to be new. */
typedef struct {
    trace_table *t;
    uint64_t h;
    trace_record *mine;   /* taken for h, not yet published */
    bool no_record;       /* none left to take */
} index_lookup;

/* Probes 'probes' words of one index region from h's position: the stack's record when one of them holds
 * it or was empty (then 'mine' is published there); NULL when all hold other stacks or no record is left. */
static trace_record *probe_region(index_lookup *l, _Atomic uint64_t *region, size_t mask, int probes) {
    size_t i = l->h & mask;
    for (int probe = 0; probe < probes; probe++, i = (i + 1) & mask) {
        uint64_t word = atomic_load_explicit(&region[i], memory_order_acquire);
        for (;;) {
            if (word != 0) {
                trace_record *found = confirmed(l->t, word, l->h);
                if (!found) break;   /* another stack: probe on */
                return found;
            }
            if (!l->mine && !(l->mine = take_record(l->t, l->h))) {
                l->no_record = true;
                return NULL;
            }
            if (atomic_compare_exchange_strong_explicit(&region[i], &word,
                                                        traces_index_word(l->h, id_of(l->t, l->mine)),
                                                        memory_order_release, memory_order_acquire))
                return l->mine;
            /* 'word' is now what another thread published here: maybe this very stack. */
        }
    }
    return NULL;
}

/* The record of the stack with hash h from the index (near region, then far), publishing a new one if
 * needed (*claimed = 1), or NULL when no record or no index word within the probes is left for it. */
static trace_record *find_in_index(trace_table *t, uint64_t h, int *claimed) {
    index_lookup l = {t, h, NULL, false};
    trace_record *r = probe_region(&l, t->near, t->near_mask, NEAR_PROBES);
    if (!r && !l.no_record) r = probe_region(&l, t->far, t->mask, MAX_PROBES);
    if (l.mine && r != l.mine) abandon(t, l.mine);
    *claimed = r && r == l.mine;
    return r;
}

/* The record of the stack with hash h: from the cache when it has it, else from the index (and cached). */
static trace_record *find_record(trace_table *t, uint64_t h, int *claimed) {
    _Atomic uint64_t *cached = &t->cache[h & t->cache_mask];
    trace_record *r = confirmed(t, atomic_load_explicit(cached, memory_order_acquire), h);
    if (r) return r;
    r = find_in_index(t, h, claimed);
    if (r) atomic_store_explicit(cached, traces_index_word(h, id_of(t, r)), memory_order_release);
    return r;
}

traces_result traces_put(trace_table *t, const trace_frame *frames, uint32_t depth, uint32_t tid,
                         uint64_t weight) {
    trace_key key = {tid, 0, 0};
    return traces_put_id(t, frames, depth, &key, weight, NULL);
}

traces_result traces_put_id(trace_table *t, const trace_frame *frames, uint32_t depth, const trace_key *key,
                            uint64_t weight, uint32_t *id) {
    uint64_t h = traces_stack_hash(frames, depth, key);
    int claimed = 0;
    trace_record *s = find_record(t, h, &claimed);
    if (!s) return TRACES_TABLE_FULL;
    if (claimed) {
        uint64_t words = 0;
        for (uint32_t i = 0; i < depth; i++) words += trace_pack_words(&frames[i]);
        uint64_t at = atomic_fetch_add(&t->words_used, words);
        if (at + words > t->word_capacity) {
            atomic_store_explicit(&s->state, SLOT_FAILED, memory_order_release);
            return TRACES_FRAMES_FULL;
        }
        uint64_t *out = &t->words[at];
        for (uint32_t i = 0; i < depth; i++) out += trace_pack(&frames[i], out);
        s->frames_at = (uint32_t)at;
        s->depth = depth;
        s->tid = key->tid;
        s->key_event = key->event;
        s->key_state = key->state;
        atomic_store_explicit(&s->state, SLOT_READY, memory_order_release);
    } else if (atomic_load_explicit(&s->state, memory_order_acquire) == SLOT_FAILED) {
        return TRACES_FRAMES_FULL;
    }
    atomic_fetch_add_explicit(&s->samples, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&s->weight, weight, memory_order_relaxed);
    if (id) *id = id_of(t, s);
    return TRACES_STORED;
}

/* The record under 'id' when it was ever taken, else NULL. */
static trace_record *record_of(trace_table *t, uint32_t id) {
    return id == 0 || id > traces_records_taken(t) ? NULL : &t->records[id - 1];
}

traces_result traces_add(trace_table *t, uint32_t id, uint64_t weight) {
    trace_record *s = record_of(t, id);
    if (!s || atomic_load_explicit(&s->state, memory_order_acquire) != SLOT_READY) return TRACES_TABLE_FULL;
    atomic_fetch_add_explicit(&s->samples, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&s->weight, weight, memory_order_relaxed);
    return TRACES_STORED;
}

bool traces_subtract(trace_table *t, uint32_t id, uint64_t weight) {
    trace_record *s = record_of(t, id);
    if (!s) return false;
    /* Never below zero: a reset between the put and this call starts the record over. */
    uint64_t samples = atomic_load_explicit(&s->samples, memory_order_relaxed);
    do {
        if (samples == 0) return false;
    } while (!atomic_compare_exchange_weak_explicit(&s->samples, &samples, samples - 1, memory_order_relaxed,
                                                    memory_order_relaxed));
    uint64_t w = atomic_load_explicit(&s->weight, memory_order_relaxed);
    do {
        if (w < weight) weight = w;
    } while (!atomic_compare_exchange_weak_explicit(&s->weight, &w, w - weight, memory_order_relaxed,
                                                    memory_order_relaxed));
    return true;
}
