/*
 * [signal-safe] traces_table: the layout of a trace table, shared by the halves of traces: traces_put
 * (signal/traces_put.c, in handlers) and creation, reset and reading (traces.c, outside them). Nobody else
 * looks inside.
 */
#ifndef LIBPROF_TRACES_TABLE_H
#define LIBPROF_TRACES_TABLE_H

#include "trace_pack.h"
#include "traces.h"

#include <stdatomic.h>

enum { SLOT_FILLING = 0, SLOT_READY = 1, SLOT_FAILED = 2 };
#define MAX_PROBES 64

typedef struct {   /* 40 bytes: the index of 256K slots is touched all over by random inserts */
    _Atomic uint64_t hash;      /* 0 = empty */
    uint32_t frames_at;         /* the first word of its frames in the arena (trace_pack.h; < 2^32 words) */
    uint32_t depth;
    uint32_t tid;
    _Atomic uint8_t state;
    uint8_t key_event, key_state;   /* trace_key */
    uint8_t pad;
    _Atomic uint64_t samples;
    _Atomic uint64_t weight;
} trace_slot;

struct trace_table {
    trace_slot *slots;
    size_t mask;
    size_t slots_bytes;
    uint64_t *words;            /* the frame arena: frames packed by trace_pack.h, one word each (3 if escaped) */
    size_t word_capacity;
    _Atomic uint64_t words_used;
    _Atomic uint64_t slots_used;
};

#endif
