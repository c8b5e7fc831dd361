/*
 * walk: native stack walking from a signal's interrupted registers, leaf first, up to the first frame in
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
} walk_regs;

typedef enum {
    WALK_ROOT = 0,       /* reached the end of the chain (thread entry, or a frame we cannot step past) */
    WALK_REACHED_JAVA,   /* stopped at a pc in the JVM's code cache */
    WALK_TOO_DEEP,       /* hit the frame limit */
} walk_end;

/* Walks by frame pointers. Returns the number of frames written to out (at most max). */
int walk_fp(walk_regs regs, trace_frame *out, int max, walk_end *end);

#endif
