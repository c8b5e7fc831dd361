/*
 * [signal-safe] walk_vm: the whole stack of a thread, leaf to root, Java and native frames interleaved in their true
 * order (cstack=vm). Native frames are stepped with the DWARF walker; frames in the JVM's code cache are
 * stepped with HotSpot's own frame layout (codeblob). The Java frames are named by the walker itself
 * (interpreted frames from their Method* and bcp, compiled ones with their inlined frames from the
 * nmethod's debug information, nmethod_scopes), or, with features=agct, are AsyncGetCallTrace's, placed
 * where the physical walk finds their frame. Every Java frame carries its execution type (frame.h).
 * Called by signal/stack.c. Async-signal-safe.
 */
#ifndef LIBPROF_WALK_VM_H
#define LIBPROF_WALK_VM_H

#include "asgct.h"
#include "walk.h"

#include <stddef.h>

/* Why a walk could not place the Java frames; the sample then falls back to stitching. */
typedef enum {
    VMWALK_OK = 0,
    VMWALK_NO_BLOB,       /* a pc in the code cache outside any live code blob */
    VMWALK_BAD_FRAME,     /* a code cache frame whose caller could not be found (implausible sp, fp or pc) */
    VMWALK_UNMATCHED,     /* a Java frame whose method is not among AsyncGetCallTrace's frames left */
    VMWALK_FRAMES_LEFT,   /* the walk ended before every AsyncGetCallTrace frame found its place */
    VMWALK_DEOPT,         /* a frame returning into the deoptimisation blob */
    VMWALK_NO_TRACE,      /* Java frames on the stack, but AsyncGetCallTrace gave none */
    VMWALK_UNNAMED,       /* self-named walk: a method without a jmethodID became an [unknown_Java] frame */
    VMWALK_NO_SCOPES,     /* self-named walk: a compiled frame without readable debug information, named
                             without its inlined frames */
    VMWALK_NO_UNWIND,     /* a native frame the walk could not step: no unwind row for its pc (no .eh_frame or
                             .debug_frame entry) and no frame pointer chain; the stack ends there, rootless */
    VMWALK_REASON_COUNT
} vmwalk_failure;

typedef struct {
    vmwalk_failure failure;
    int native_prefix;    /* frames written before the first frame in the code cache */
    bool truncated;       /* stopped at the frame limit */
    int self_named;       /* physical Java frames the walker named itself */
    int unnamed;          /* of those, methods without a jmethodID, written as [unknown_Java] */
    int no_scopes;        /* compiled frames named without their debug information */
    bool no_unwind;       /* the walk ended in a native frame without unwind information (VMWALK_NO_UNWIND) */
    int deopt_frames;     /* compiled frames being deoptimised, named at the pc the VM saved in them */
    bool frozen;          /* ended at a virtual thread's continuation return barrier: its frames below are
                             frozen on the heap (the stack ends in [frozen_frames], not a failure) */
} vmwalk_result;

/* Where HotSpot keeps what leads from a Method* to its jmethodID and bytecodes (from vmstructs). */
typedef struct {
    uint64_t const_method, constants, idnum, pool_holder, jmethod_ids, code_size, const_method_size;
    unsigned idnum_width, code_size_width;
    int interp_bcp_slot;  /* word offset of the bytecode pointer from an interpreted frame's rbp */
    uint64_t access_flags;  /* Method::_access_flags, 0 when not described */
    unsigned access_flags_width;
} walk_vm_layout;

/* Installs the layout walk_vm_check found; walks name Java frames themselves only once it is set. */
void walk_vm_set_layout(const walk_vm_layout *layout);
/* True once the walker can name Java frames itself (the layout is set and nmethod scopes are readable). */
bool walk_vm_names_frames(void);

/* Walks from regs, placing the 'java_count' Java frames (leaf first) from AsyncGetCallTrace. With
 * 'name_frames' and java_count 0 (the default mode, or AsyncGetCallTrace gave none), the walker names each
 * Java frame itself: interpreted frames with the bci of their bcp, compiled frames with every inlined
 * frame and its bci from the nmethod's scopes. A method it cannot name is an [unknown_Java] frame in its
 * place (counted in r->unnamed); a frame it cannot step ends the walk with r->failure.
 * Returns the number of frames written to out (at most max). On failure, out[0..native_prefix) are still
 * the leaf's native frames, as the stitching walkers would give them. */
int walk_vm(walk_regs regs, const asgct_frame *java, int java_count, bool name_frames, trace_frame *out, int max,
            vmwalk_result *r);

const char *walk_vm_failure_name(vmwalk_failure f);

#endif
