/*
 * frame: the raw frame recorded by the signal path, before any naming, and the marker frames that stand
 * for stacks the profiler could not walk. Shared by the signal path (sample, traces) and the dump path.
 */
#ifndef LIBPROF_FRAME_H
#define LIBPROF_FRAME_H

#include <stdbool.h>
#include <stdint.h>

typedef enum {
    FRAME_JAVA = 0,      /* a Java method whose execution type is unknown (AsyncGetCallTrace mode) */
    FRAME_MARKER,        /* id is a marker_id */
    FRAME_NATIVE,        /* id is a pc in native code (a call site for callers) */
    FRAME_KERNEL,        /* id is a kernel address, from the perf engine's call chain */
    /* Java methods whose execution type the walker saw (cstack=vm): id is a jmethodID as for FRAME_JAVA. */
    FRAME_JAVA_INTERPRETED,
    FRAME_JAVA_C1,       /* compiled by C1 (tiers 1-3) */
    FRAME_JAVA_JIT,      /* compiled by C2 (tier 4), or by a compiler whose tier is unknown */
    FRAME_JAVA_INLINED,  /* inlined into the compiled frame that follows it (towards the root) */
    /* The leaf of an allocation or lock sample: id is a class_names id, the class of what it stands for. */
    FRAME_CLASS_ALLOC,               /* an allocated object ("_[i]" with ann, as async-profiler) */
    FRAME_CLASS_ALLOC_OUTSIDE_TLAB,  /* allocated outside a TLAB ("_[k]"): from the JDK's own recordings */
    FRAME_CLASS_MONITOR,             /* a contended synchronized monitor's class ("_[i]") */
    FRAME_CLASS_PARK,                /* the blocker a thread parked on ("_[i]") */
    /* features=vtable: the class of the receiver a vtable or itable stub dispatches on, above the stub's frame;
     * id is the address of the class name's Symbol in the JVM (receiver_class.h), read again at dump. */
    FRAME_RECEIVER_CLASS,
    FRAME_CPU,           /* record-cpu: id is the CPU the sample was taken on, the stack's root ("[CPU-1]") */
} frame_kind;

/* True for every kind whose id is a jmethodID. */
static inline bool frame_kind_is_java(int kind) {
    return kind == FRAME_JAVA || (kind >= FRAME_JAVA_INTERPRETED && kind <= FRAME_JAVA_INLINED);
}

/* True for every kind whose id is a class_names id (an allocation's or a lock's class). */
static inline bool frame_kind_is_class(int kind) {
    return kind >= FRAME_CLASS_ALLOC && kind <= FRAME_CLASS_PARK;
}

/* async-profiler's 'ann' suffix of a class leaf: "_[k]" outside a TLAB, "_[i]" for the others. */
static inline const char *frame_class_suffix(int kind) {
    return kind == FRAME_CLASS_ALLOC_OUTSIDE_TLAB ? "_[k]" : "_[i]";
}

typedef struct {
    uint64_t id;         /* jmethodID, marker_id, native pc, kernel address or class_names id, by kind */
    int32_t bci;         /* bytecode index for Java frames (-3: native method), else 0 */
    int32_t kind;        /* frame_kind */
} trace_frame;

/* Marker frames. The first ten mirror AsyncGetCallTrace's failure codes (marker = -code). */
typedef enum {
    MARKER_NO_CLASS_LOAD = 1,
    MARKER_GC_ACTIVE = 2,
    MARKER_UNKNOWN_NOT_JAVA = 3,
    MARKER_NOT_WALKABLE_NOT_JAVA = 4,
    MARKER_UNKNOWN_JAVA = 5,
    MARKER_NOT_WALKABLE_JAVA = 6,
    MARKER_UNKNOWN_STATE = 7,
    MARKER_THREAD_EXIT = 8,
    MARKER_DEOPT = 9,
    MARKER_SAFEPOINT = 10,
    MARKER_NO_JAVA_FRAMES = 11,   /* a Java thread outside Java code: not a failure */
    MARKER_NON_JAVA_THREAD = 12,  /* a thread the JVM does not know (GC workers, native threads) */
    MARKER_TRUNCATED = 13,        /* the stack was deeper than jstackdepth */
    MARKER_FROZEN_FRAMES = 14,    /* a virtual thread's frames below are frozen in its continuation (on the
                                     heap, not the stack): its stack ends at the continuation's return barrier */
    MARKER_COUNT
} marker_id;

/* "[unknown_Java]" style names; NULL for ids out of range. */
const char *frame_marker_name(int marker);

/* jstackdepth=max[/cut] bounds the recorded stack as a whole (kernel, native and Java frames alike), as
 * async-profiler counts it: a stack (leaf first) of max frames or more, or one a walker already ended in
 * [truncated], keeps its max leaf-most frames, the hot end, unmarked; with 0 < cut < max it keeps cut
 * frames and a [truncated] frame at the root end in place of the rest. Returns the new depth (at most max).
 * Async-signal-safe. */
uint32_t frame_bound_stack(trace_frame *frames, uint32_t depth, uint32_t max, uint32_t cut);

/* True for markers that mean the profiler failed to walk a stack it should have walked. */
bool frame_marker_is_failure(int marker);

#endif
