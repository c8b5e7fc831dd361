/*
 * [signal-safe] walk_vm: the whole stack of a thread, leaf to root, Java and native frames interleaved in their true
 * order (cstack=vm). Native frames are stepped with the DWARF walker; frames in the JVM's code cache are
 * stepped with HotSpot's own frame layout (codeblob); the Java frames themselves (with inlining and bci)
 * are AsyncGetCallTrace's, placed where the physical walk finds their frame. Called by sample.
 * Async-signal-safe.
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
    VMWALK_REASON_COUNT
} vmwalk_failure;

typedef struct {
    vmwalk_failure failure;
    int native_prefix;    /* frames written before the first frame in the code cache */
    bool truncated;       /* stopped at the frame limit */
    int self_named;       /* Java frames the walker named itself (AsyncGetCallTrace gave none) */
} vmwalk_result;

/* Where HotSpot keeps what leads from a Method* to its jmethodID and bytecodes (from vmstructs). */
typedef struct {
    uint64_t const_method, constants, idnum, pool_holder, jmethod_ids, code_size, const_method_size;
    unsigned idnum_width, code_size_width;
    int interp_bcp_slot;  /* word offset of the bytecode pointer from an interpreted frame's rbp */
} walk_vm_layout;

/* Installs the layout walk_vm_check found; walks name Java frames themselves only once it is set. */
void walk_vm_set_layout(const walk_vm_layout *layout);

/* Walks from regs, placing the 'java_count' Java frames (leaf first; 0 when AsyncGetCallTrace gave none).
 * With 'name_frames' and no frames from AsyncGetCallTrace (it fails for threads inside the VM, in some
 * stubs, during GC...), the walker names each physical Java frame itself: its method's jmethodID, the bci
 * of interpreted frames (0 for compiled ones, whose inlined frames it does not show).
 * Returns the number of frames written to out (at most max). On failure, out[0..native_prefix) are still
 * the leaf's native frames, as the stitching walkers would give them. */
int walk_vm(walk_regs regs, const asgct_frame *java, int java_count, bool name_frames, trace_frame *out, int max,
            vmwalk_result *r);

const char *walk_vm_failure_name(vmwalk_failure f);

#endif
