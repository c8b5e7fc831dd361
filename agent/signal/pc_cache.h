/*
 * [signal-safe] pc_cache: what the walker found at a compiled pc, remembered so that the next sample at
 * the same pc skips the work: the nmethod's code blob facts (for stepping to the caller) and the named
 * frames of its whole inlining chain (jmethodID, bci, kind), which otherwise cost a code blob lookup, a
 * binary search of the PcDescs, the scope decoding and a jmethodID lookup per scope.
 *
 * An entry is only returned for the nmethod it was made from: it remembers the nmethod's identity (its
 * address, its Method* and its compile id, unique for the VM's lifetime), and each lookup compares it with
 * the identity read live at that pc through the code heap's segment map (pc_cache_identify). A freed and
 * reused nmethod, or other code now at that address, gives another identity: a miss, never a stale chain.
 *
 * Fixed size, preallocated (static), direct-mapped by pc: a newer pc replaces the older one in its slot.
 * Lock-free: each slot is a sequence lock; a writer that finds it taken skips caching, a reader that finds
 * it being written or changed under it misses. Called by walk_vm; no malloc, no locks, no system calls.
 */
#ifndef LIBPROF_PC_CACHE_H
#define LIBPROF_PC_CACHE_H

#include "codeblob.h"
#include "frame.h"

#include <stdbool.h>
#include <stdint.h>

#define PC_CACHE_SLOTS 4096
#define PC_CACHE_FRAMES 6   /* a longer inlining chain is not cached (decoded every time) */

/* Which nmethod a pc is in, as far as the cache needs to tell nmethods apart. */
typedef struct {
    uintptr_t blob, method;
    int64_t compile_id;
} pc_cache_identity;

/* What is remembered for a pc: the blob (kind BLOB_NMETHOD) and its frames, innermost first. */
typedef struct {
    codeblob blob;
    int count;
    trace_frame frames[PC_CACHE_FRAMES];
} pc_cache_value;

/* The identity of the live nmethod holding pc, read now; false when pc is in no nmethod (or the cache
 * cannot tell: this JVM does not describe nmethod::_compile_id). */
bool pc_cache_identify(uintptr_t pc, pc_cache_identity *id);

/* True and *out filled when the cache holds pc for exactly this identity. */
bool pc_cache_get(uintptr_t pc, const pc_cache_identity *id, pc_cache_value *out);

/* Starts loading the cache lines pc_cache_get(pc, ...) will read (a hint: no fault, no effect on results). */
void pc_cache_prefetch(uintptr_t pc);

/* Remembers v for pc in nmethod id (replacing what its slot held). Skipped when v has no frames or more
 * than PC_CACHE_FRAMES, or when another handler is writing the slot. */
void pc_cache_put(uintptr_t pc, const pc_cache_identity *id, const pc_cache_value *v);

/* pc_cache_put for the leaf frame of a sample, which may stand at any instruction: stored only into a slot
 * that is empty or holds another leaf's entry, so the many pcs of hot loops never push out the return
 * addresses (far fewer, met in every sample of their stacks) that the cache is mostly for. */
void pc_cache_put_leaf(uintptr_t pc, const pc_cache_identity *id, const pc_cache_value *v);

/* The slot pc maps to (tests use it to make two pcs collide). */
unsigned pc_cache_slot(uintptr_t pc);

/* Empties the cache. Not for handlers: when no walk runs (tests, a new session). */
void pc_cache_clear(void);

#endif
