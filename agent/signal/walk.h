/*
 * [signal-safe] walk: native stack walking from a signal's interrupted registers, leaf first, up to the first frame in
 * JVM-generated code (where AsyncGetCallTrace takes over) or the thread's root. Frames are stored as
 * FRAME_NATIVE with the pc (the call site, return address - 1, for callers). Async-signal-safe.
 */
#ifndef LIBPROF_WALK_H
#define LIBPROF_WALK_H

#include "frame.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct {
    uintptr_t pc, sp, fp;
    /* For a leaf in HotSpot code that keeps its caller in a register (walk_vm): rdx holds the exception pc
     * in C2's exception blob; in the interpreter's method entry rbx holds the Method* and r13 the caller's
     * sp, in its remove_activation rbx the caller's sp; rax and r13 hold a return address for a few
     * instructions (transit_frames.h). 0 when not known. */
    uintptr_t dx, bx, r13, ax;
    /* The interrupted thread's JNIEnv (it leads to its JavaThread: deopt_frames.h), 0 when none. */
    uintptr_t env;
    /* The link register (aarch64's x30): a leaf's return address until the leaf saves it; 0 on x86_64. */
    uintptr_t lr;
    /* HotSpot's first Java argument register: the receiver in a vtable or itable stub; 0 when not known. */
    uintptr_t receiver;
    /* features=comptask: a compiler thread's compile_method frame gets the method it compiles above it. */
    bool compile_tasks;
    uint32_t tid;   /* the interrupted thread's OS id (features=comptask) */
} walk_regs;

typedef enum {
    WALK_ROOT = 0,       /* reached the end of the chain (thread entry, or a frame we cannot step past) */
    WALK_REACHED_JAVA,   /* stopped at a pc in the JVM's code cache */
    WALK_TOO_DEEP,       /* hit the frame limit */
} walk_end;

/* Walks by frame pointers. Returns the number of frames written to out (at most max). */
int walk_fp(walk_regs regs, trace_frame *out, int max, walk_end *end);

/* Walks by the DWARF unwind tables of native_map, falling back to the frame pointer for code they do not
 * describe. Same contract as walk_fp. */
int walk_dwarf(walk_regs regs, trace_frame *out, int max, walk_end *end);

/* One DWARF step (the frame pointer where no unwind row describes pc); false at the thread's root (a row
 * marking the outermost frame) or when the frame cannot be stepped. */
bool walk_dwarf_step(uintptr_t *pc, uintptr_t *sp, uintptr_t *fp, bool leaf);

/* The same for the interrupted frame, whose return address may still be in the link register lr (aarch64;
 * 0 on x86_64, where this is walk_dwarf_step of a leaf). */
bool walk_dwarf_leaf_step(uintptr_t *pc, uintptr_t *sp, uintptr_t *fp, uintptr_t lr);

/* One frame-pointer step from (pc, sp, fp) to the caller; false when the chain does not look sane. */
bool walk_fp_step(uintptr_t *pc, uintptr_t *sp, uintptr_t *fp);

/* Shared by the walkers: records the frame at pc (the call site for callers) unless the walk ends there
 * (no code, JVM code, frame limit); false means stop. */
bool walk_record(uintptr_t pc, bool leaf, trace_frame *out, int max, int *n, walk_end *end);

/* Set when a walk met code that is neither the JVM's nor in a known object (a library loaded since the
 * last native_map_refresh). Cleared by whoever refreshes. */
bool walk_take_unknown_code_flag(void);

#endif
