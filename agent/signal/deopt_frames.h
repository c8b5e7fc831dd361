/*
 * [signal-safe] deopt_frames: the Java frames of a compiled frame HotSpot is deoptimising, while it unpacks
 * them into interpreter frames (x86_64, JDK 17 and 21+).
 *
 * Deoptimization::fetch_unroll_info describes the compiled frame (its method and every method inlined into
 * it, each with its bci) in a vframeArray, hung on the thread at JavaThread::_vframe_array_head. The
 * deoptimisation blob (or C2's uncommon trap blob) then replaces the compiled frame by as many skeletal
 * interpreter frames, each an rbp frame with its return address and its sender sp slot set (walkable) but
 * its Method*, bcp and locals not yet written, and calls Deoptimization::unpack_frames to fill them in,
 * outermost first. Until it is done, the Method* slot of a frame not yet filled holds whatever the stack
 * held before: naming the frames from there would be a guess. The vframeArray names them exactly: element
 * 0 is the youngest frame (vframeArray::unpack_to_stack). At the end unpack_frames clears the head
 * (cleanup_deopt_info), after every frame is filled: from then on they are ordinary interpreted frames.
 *
 * Every offset comes from the VM's structure tables (vmstructs), read by deopt_frames_init outside
 * handlers: JavaThread::_vframe_array_head, vframeArray::_frames and _caller, vframeArrayElement::_method
 * and _bci, and the sizes of vframeArray and vframeArrayElement (the elements are the array's variable last
 * member, so the first one starts one element before the end of the fixed part). Not exported: frame::_sp,
 * the first member of HotSpot's frame class in every JDK since 8, read as the caller's sp to check that the
 * array describes the frames on the stack.
 */
#ifndef LIBPROF_DEOPT_FRAMES_H
#define LIBPROF_DEOPT_FRAMES_H

#include <stdbool.h>
#include <stdint.h>

typedef struct {
    uint64_t env_offset;       /* the JNIEnv inside the JavaThread: a sample knows its thread's JNIEnv */
    uint64_t array_head;       /* JavaThread::_vframe_array_head */
    uint64_t frames;           /* vframeArray::_frames (int) */
    uint64_t caller;           /* vframeArray::_caller (a frame, its _sp first) */
    uint64_t elements;         /* the first vframeArrayElement, from the vframeArray */
    uint64_t element_size;     /* sizeof(vframeArrayElement) */
    uint64_t element_method;   /* vframeArrayElement::_method (Method*) */
    uint64_t element_bci;      /* vframeArrayElement::_bci (int) */
} deopt_frames_layout;

/* Outside handlers, once: without it no deoptimisation in progress is named (the walk ends in a marker). */
void deopt_frames_set_layout(const deopt_frames_layout *layout);

/* The vframeArray being unpacked on the thread whose JNIEnv is env. */
typedef struct {
    uintptr_t array;
    int count;             /* its Java frames, the skeletal interpreter frames on the stack */
    uintptr_t caller_sp;   /* the sp of the deoptimised frame's caller: the outermost skeletal frame's sender sp */
} deopt_unpacking;

typedef enum {
    DEOPT_UNKNOWN = -1,    /* no layout, no JNIEnv, or unreadable */
    DEOPT_DONE = 0,        /* no vframeArray on the thread: the frames are filled (or there were none) */
    DEOPT_UNPACKING = 1,   /* *out describes the frames being unpacked */
} deopt_state;

deopt_state deopt_frames_unpacking(uintptr_t env, deopt_unpacking *out);

/* The method and bci of frame k (0: the youngest) of u; false when unreadable. */
bool deopt_frames_element(const deopt_unpacking *u, int k, uintptr_t *method, int32_t *bci);

#endif
