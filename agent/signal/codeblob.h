/*
 * [signal-safe] codeblob: what the JVM's code cache holds at a pc, for the stack walker that continues
 * through Java frames (walk_vm). Finds the code blob containing a pc the way HotSpot itself does (the code heap's segment map),
 * and reads the blob's frame size, frame-complete offset, code range and, for compiled Java methods, the
 * Method*. Every offset and size comes from the VM's own structure tables (vmstructs), so the same code
 * follows JDK 17's and JDK 25's different CodeBlob layouts. codeblob_init runs outside signal handlers;
 * the rest is async-signal-safe.
 */
#ifndef LIBPROF_CODEBLOB_H
#define LIBPROF_CODEBLOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum {
    BLOB_NONE = 0,      /* no live blob here (free block, uncommitted memory, inconsistent data) */
    BLOB_NMETHOD,       /* a compiled Java method or native method wrapper: method is its Method* */
    BLOB_INTERPRETER,   /* the template interpreter: an rbp-based frame holding its Method* */
    BLOB_STUB,          /* any other blob: runtime stubs, adapters, the call stub, deoptimisation blob */
} blob_kind;

typedef struct {
    blob_kind kind;
    uintptr_t blob;            /* the CodeBlob's own address */
    uintptr_t code_begin, code_end;
    uintptr_t frame_bytes;     /* the frame's size including the return address; 0 for frameless stubs */
    uintptr_t frame_complete;  /* the first pc at which the frame is fully built; 0 when never */
    uintptr_t method;          /* Method* of an nmethod */
    bool deopt;                /* the deoptimisation blob: its caller's pc was patched by the VM */
} codeblob;

bool codeblob_ready(void);

/* The blob containing pc. Async-signal-safe; false when pc is in no live blob. */
bool codeblob_find(uintptr_t pc, codeblob *out);

/* The name of the code blob holding pc (CodeBlob::_name: "vtable chunks", "StubRoutines (2)",
 * "_new_array_Java"...), for naming frames at dump time. False when pc is in no blob. */
bool codeblob_name_at(uintptr_t pc, char *name, size_t len);

/* The nmethod holding pc, by the segment map and its header alone (no check of its fields against pc):
 * the live identity a cache compares with what it remembers (pc_cache.h). False when pc is in no live
 * nmethod. Async-signal-safe. */
bool codeblob_nmethod_at(uintptr_t pc, uintptr_t *blob, uintptr_t *method);

/* The return address of the call stub: a pc equal to it is an entry frame (VM code called Java). */
uintptr_t codeblob_call_stub_return(void);

/* Word offsets from an interpreted frame's rbp: its Method* and its sender's unextended sp. */
int codeblob_interp_method_slot(void);
int codeblob_interp_sender_sp_slot(void);

/* The pc a frame of nmethod b was running before HotSpot deoptimised it, when pc (the frame's return
 * address, usp its unextended sp) is b's deoptimisation handler; else 0. Async-signal-safe. */
uintptr_t codeblob_deopt_original_pc(const codeblob *b, uintptr_t pc, uintptr_t usp);

/* Whether pc may be nmethod b's deoptimisation handler (or its method-handle variant): true when it is, and
 * when that cannot be read (the caller then treats the pc as shared by several frames). Async-signal-safe. */
bool codeblob_may_be_deopt_handler(const codeblob *b, uintptr_t pc);

/* A field of 1, 2, 4 or 8 bytes (naturally aligned) read through safe_read, sign-extended. */
bool codeblob_read_field(uintptr_t addr, unsigned width, int64_t *out);

/* What codeblob_init (codeblob_init.c, outside handlers) reads from the VM's structure tables and
 * codeblob_find (signal/codeblob.c) uses: written once before 'ready' is set, never again. */
#define CODEBLOB_MAX_HEAPS 8
typedef struct {
    uintptr_t low;                 /* VirtualSpace::_low of the heap's memory: segment 0 */
    const uintptr_t *high_at;      /* its committed end, live */
    uintptr_t segmap_low;
    const uintptr_t *segmap_high_at;
    int log2_segment;
} codeblob_heap;

typedef struct {
    uint64_t offset;
    unsigned width;
} codeblob_field;

typedef struct {
    codeblob_heap heaps[CODEBLOB_MAX_HEAPS];
    int heap_count;
    bool ready;
    uint64_t heap_block_size, used_at;
    unsigned used_width;
    codeblob_field blob_size, frame_complete, frame_size, code_begin, code_end, code_offset, data_offset, kind, name;
    codeblob_field method;
    /* Where a deoptimised compiled frame keeps its original pc (nmethod::_orig_pc_offset, bytes from the
     * frame's unextended sp) and where the nmethod's deoptimisation handler is, the pc HotSpot patches in as
     * the frame's return address: JDK 17 CompiledMethod::_deopt_handler_begin and _deopt_mh_handler_begin
     * (pointers), JDK 21+ nmethod::_deopt_handler_offset (from the blob). has_orig_pc when all are known. */
    codeblob_field orig_pc_offset, deopt_handler, deopt_mh_handler;
    bool has_orig_pc, deopt_handler_is_offset, has_deopt_mh_handler;
    /* nmethod::_stub_offset: where the nmethod's stub section starts, in bytes from the blob (its static
     * call stubs, transit_frames.h). */
    codeblob_field stub_offset;
    bool has_stub_offset;
    bool has_kind, has_code_pointers, has_name;
    int64_t kind_nmethod, kind_deopt;
    uintptr_t call_stub_return, interp_low, interp_high;
    int interp_method_slot, interp_sender_sp_slot;
} codeblob_layout;
extern codeblob_layout codeblob_vm;

#endif
