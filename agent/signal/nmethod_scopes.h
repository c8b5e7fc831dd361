/*
 * [signal-safe] nmethod_scopes: which Java methods, with inlining and bci, a compiled method (nmethod) is
 * running at a pc, from the nmethod's own debug information, the way HotSpot's deoptimisation and stack
 * walking read it: the PcDesc of the pc in the nmethod's pcs section gives a scope decode offset into its
 * scopes data; each scope there is (sender scope offset, metadata index of its Method*, bci), the innermost
 * (the inlined callee) first. Every address comes from the VM's structure tables (nmethod_scopes_init.c,
 * outside handlers), so JDK 17's layout (pcs in the nmethod, scopes data pointer in CompiledMethod) and
 * JDK 25's (pcs and scopes in the immutable data, metadata in the mutable data) are read by the same code
 * (the set-up half: nmethod_scopes_init.h).
 * Every read goes through safe_read: a blob freed while we look gives a counted failure, never a fault.
 * Called by walk_vm.
 */
#ifndef LIBPROF_NMETHOD_SCOPES_H
#define LIBPROF_NMETHOD_SCOPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Deepest inlining decoded; HotSpot's MaxInlineLevel is 15 by default, far below it. */
#define NMETHOD_SCOPES_MAX 64

typedef struct {
    uintptr_t method;   /* Method* */
    int32_t bci;        /* -1 (method entry) when the scope says InvocationEntryBci */
} nmethod_scope;

typedef enum {
    NMETHOD_TIER_UNKNOWN = 0,
    NMETHOD_TIER_C1,    /* comp levels 1-3 */
    NMETHOD_TIER_C2,    /* comp level 4 (and JVMCI's top tier) */
} nmethod_tier;

/* Reads the scopes of the nmethod at 'blob' (code starting at code_begin) at pc, innermost first, into out
 * (at most NMETHOD_SCOPES_MAX). 'method' is the nmethod's own Method*, the outermost scope where the pcs
 * say nothing more precise. Returns the number of scopes (>= 1), or 0 when the data cannot be read or
 * does not hold together. *tier is the nmethod's compiler tier. */
int nmethod_scopes_at(uintptr_t blob, uintptr_t code_begin, uintptr_t pc, uintptr_t method, nmethod_scope *out,
                      nmethod_tier *tier);

/* The compiler tier of the nmethod at 'blob'; NMETHOD_TIER_UNKNOWN when it cannot be read. */
nmethod_tier nmethod_scopes_tier(uintptr_t blob);

/* The compile id of the nmethod at 'blob' (unique for the VM's lifetime), which tells a recycled nmethod
 * from the one a cache saw (pc_cache.h). False when it cannot be read or this JVM does not describe it. */
bool nmethod_scopes_compile_id(uintptr_t blob, int64_t *id);

/* True once nmethod_scopes_init found every entry it needs. */
bool nmethod_scopes_ready(void);

/* What nmethod_scopes_init (nmethod_scopes_init.h) fills in before setting 'ready', never changed after. */
typedef struct {
    uint64_t offset;
    unsigned width;
} nmethod_field;

typedef struct {
    bool ready;
    bool immutable_data;          /* JDK 23+: pcs and scopes offsets count from nmethod::_immutable_data */
    bool scopes_data_pointer;     /* JDK <= 22: CompiledMethod::_scopes_data_begin holds the address */
    bool metadata_in_mutable;     /* JDK 25+: metadata follows the relocations in CodeBlob::_mutable_data */
    nmethod_field immutable, pcs_offset, pcs_end_offset, scopes_data, metadata_offset, mutable_data,
        relocation_size, comp_level, compile_id;   /* compile_id: width 0 when not described */
    uint64_t pc_desc_size, pc_desc_pc, pc_desc_scope;
    unsigned unsigned5_excluded;  /* UNSIGNED5's excluded low bytes: 0 before JDK 20, 1 since */
} nmethod_scopes_layout;
extern nmethod_scopes_layout nmethod_scopes_vm;

#endif
