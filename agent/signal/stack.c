/*
 * [signal-safe] stack: the handler's stack assembly (stack.h). In cstack=vm one walk (walk_vm.h) names
 * native and Java frames alike, without AsyncGetCallTrace. Elsewhere, and with features=agct, Java frames
 * come from AsyncGetCallTrace, retried from a JIT stub's caller when it cannot start inside the stub, and
 * native frames from the walkers (walk.h, walk_vm.h); with features=agct cstack=vm places them on the
 * physical frames, and when it cannot, the sample is stitched (native leaf frames, then the Java frames)
 * and the reason is counted.
 */
#define _GNU_SOURCE
#include "stack.h"

#include "arch.h"
#include "java_tids.h"
#include "safe_read.h"
#include "sample_state.h"
#include "walk.h"
#include "walk_vm.h"

#include <stdatomic.h>
#include <ucontext.h>

/* True when every frame names a method: a guessed caller that was no caller yields frames without one. */
static bool all_frames_named(const asgct_trace *trace) {
    for (jint i = 0; i < trace->num_frames; i++) {
        if (!trace->frames[i].method_id) return false;
    }
    return trace->num_frames > 0;
}

static bool walk_from(asgct_trace *trace, const ucontext_t *uc, uintptr_t pc, uintptr_t sp, uintptr_t fp) {
    ucontext_t caller = *uc;
    arch_uc_set_frame(&caller, pc, sp, fp);
    trace->num_frames = 0;
    sampling.config.asgct(trace, sampling.config.max_depth, &caller);
    return all_frames_named(trace);
}

/* AsyncGetCallTrace cannot start inside a JIT stub (math intrinsics, arraycopy, runtime calls) but the
 * stub's caller is one frame away: either the return address is at sp (a frameless stub) or the stub made
 * a frame-pointer frame. Retrying from the caller attributes the sample to the Java code that called the
 * stub instead of losing it. The original failure stays when neither guess yields named frames. */
static void retry_from_stub_caller(asgct_trace *trace, void *ucontext) {
    const ucontext_t *uc = ucontext;
    jint original = trace->num_frames;
    uintptr_t sp = arch_uc_sp(uc), fp = arch_uc_fp(uc), ret, saved_fp;
    /* The word at sp is on the thread's own live stack: always readable. */
    if (walk_from(trace, uc, *(uintptr_t *)sp, sp + sizeof(uintptr_t), fp)) return;
    if (fp > sp && fp - sp < 65536 && safe_read_word(fp + sizeof(uintptr_t), &ret) &&
        safe_read_word(fp, &saved_fp) && walk_from(trace, uc, ret, fp + 2 * sizeof(uintptr_t), saved_fp))
        return;
    trace->num_frames = original;
}

/* The Java frames of the interrupted thread from AsyncGetCallTrace, into raw. Returns their number, or a
 * failure code (< 0, see the markers in frame.h). */
static jint java_trace(void *ucontext, JNIEnv *env, asgct_frame *raw) {
    asgct_trace trace = {env, 0, raw};
    sampling.config.asgct(&trace, sampling.config.max_depth, ucontext);
    if ((trace.num_frames == -MARKER_UNKNOWN_JAVA || trace.num_frames == -MARKER_NOT_WALKABLE_JAVA) && ucontext)
        retry_from_stub_caller(&trace, ucontext);
    return trace.num_frames;
}

/* Appends the 'count' Java frames of raw (or count's failure code) after the 'n' native frames already in
 * 'out' (leaf first). When there are none, the native frames stand alone if they are the thread's whole
 * truth; otherwise a marker frame says why the Java part is missing. Returns the new depth. */
static uint32_t append_java_frames(jint count, JNIEnv *env, uint32_t tid, const asgct_frame *raw, trace_frame *out,
                                   uint32_t n) {
    if (!env) {
        if (n == 0) out[n++] = (trace_frame){MARKER_NON_JAVA_THREAD, 0, FRAME_MARKER};
        return n;
    }
    if (count <= 0) {
        int marker = count == 0 ? MARKER_NO_JAVA_FRAMES : -count;
        if (marker >= MARKER_COUNT) marker = MARKER_UNKNOWN_STATE;
        /* JIT compiler and other VM-internal threads carry a JNIEnv but never run Java: not a failure. */
        bool not_java = marker == MARKER_UNKNOWN_NOT_JAVA || marker == MARKER_NOT_WALKABLE_NOT_JAVA ||
                        marker == MARKER_NO_JAVA_FRAMES;
        if (not_java && sampling.config.java_tids_complete && !java_tids_contains((int)tid))
            marker = MARKER_NON_JAVA_THREAD;
        bool complete_without_java = marker == MARKER_NON_JAVA_THREAD || marker == MARKER_NO_JAVA_FRAMES;
        if (!(complete_without_java && n > 0)) out[n++] = (trace_frame){(uint64_t)marker, 0, FRAME_MARKER};
        return n;
    }
    for (jint i = 0; i < count; i++) {
        out[n++] = (trace_frame){(uint64_t)(uintptr_t)raw[i].method_id, raw[i].lineno, FRAME_JAVA};
    }
    if (count >= sampling.config.max_depth) out[n++] = (trace_frame){MARKER_TRUNCATED, 0, FRAME_MARKER};
    return n;
}

/* The native frames from the leaf down to the first frame in the code cache. */
static uint32_t native_leaf(walk_regs start, trace_frame *out) {
    walk_end end;
    return (uint32_t)walk_dwarf(start, out, SAMPLE_MAX_NATIVE_FRAMES, &end);
}

/* cstack=vm by default: one walk that names every frame itself, no AsyncGetCallTrace. What it could not
 * name is a marker frame in place ([unknown_Java] for a method without a jmethodID), a frame it could not
 * step ends the stack in a marker ([unknown_Java], or [deoptimization] for a frame being deoptimised);
 * each is counted by reason. */
static uint32_t collect_self_named(walk_regs start, JNIEnv *env, uint32_t tid, trace_frame *out) {
    vmwalk_result r;
    int max = sampling.config.max_depth + SAMPLE_MAX_NATIVE_FRAMES;
    uint32_t n = (uint32_t)walk_vm(start, NULL, 0, true, out, max, &r);
    if (r.self_named) atomic_fetch_add_explicit(&sampling.self_named, 1, memory_order_relaxed);
    if (r.unnamed) atomic_fetch_add_explicit(&sampling.vm_fallbacks[VMWALK_UNNAMED], 1, memory_order_relaxed);
    if (r.no_scopes) atomic_fetch_add_explicit(&sampling.vm_fallbacks[VMWALK_NO_SCOPES], 1, memory_order_relaxed);
    if (r.no_unwind) atomic_fetch_add_explicit(&sampling.vm_fallbacks[VMWALK_NO_UNWIND], 1, memory_order_relaxed);
    if (r.truncated) {
        out[n++] = (trace_frame){MARKER_TRUNCATED, 0, FRAME_MARKER};
    } else if (r.frozen) {
        out[n++] = (trace_frame){MARKER_FROZEN_FRAMES, 0, FRAME_MARKER};
    } else if (r.failure != VMWALK_OK) {
        atomic_fetch_add_explicit(&sampling.vm_fallbacks[r.failure], 1, memory_order_relaxed);
        out[n++] = (trace_frame){r.failure == VMWALK_DEOPT ? MARKER_DEOPT : MARKER_UNKNOWN_JAVA, 0, FRAME_MARKER};
    } else if (n == 0) {
        n = append_java_frames(0, env, tid, NULL, out, 0);
    }
    return n;
}

/* cstack=vm with features=agct: one walk through native and Java frames alike, the Java frames from
 * AsyncGetCallTrace; when it cannot place them, the sample falls back to stitching (the leaf's native frames, then the Java frames) and the reason is
 * counted. */
static uint32_t collect_interleaved(walk_regs start, JNIEnv *env, uint32_t tid, asgct_frame *raw, trace_frame *out,
                                    void *ucontext) {
    jint count = env ? java_trace(ucontext, env, raw) : 0;
    /* Deeper than jstackdepth: the root is out of reach anyway, the stitched stack is the truncated truth. */
    if (count >= sampling.config.max_depth)
        return append_java_frames(count, env, tid, raw, out, native_leaf(start, out));
    vmwalk_result r;
    int max = sampling.config.max_depth + SAMPLE_MAX_NATIVE_FRAMES;
    uint32_t n = (uint32_t)walk_vm(start, raw, count, env != NULL, out, max, &r);
    if (r.no_unwind) atomic_fetch_add_explicit(&sampling.vm_fallbacks[VMWALK_NO_UNWIND], 1, memory_order_relaxed);
    if (r.failure == VMWALK_OK) {
        if (r.self_named) atomic_fetch_add_explicit(&sampling.self_named, 1, memory_order_relaxed);
        if (r.truncated) out[n++] = (trace_frame){MARKER_TRUNCATED, 0, FRAME_MARKER};
        else if (count <= 0 && !r.self_named) n = append_java_frames(count, env, tid, raw, out, n);
        return n;
    }
    atomic_fetch_add_explicit(&sampling.vm_fallbacks[r.failure], 1, memory_order_relaxed);
    return append_java_frames(count, env, tid, raw, out, (uint32_t)r.native_prefix);
}

/* The interrupted thread's stack below the kernel, leaf first: native frames down to JVM code, then Java
 * frames. */
static uint32_t user_stack(void *ucontext, JNIEnv *env, uint32_t tid, asgct_frame *raw, trace_frame *out) {
    uint32_t n = 0;
    if (sampling.config.cstack != CSTACK_NO && ucontext) {
        const ucontext_t *uc = ucontext;
        walk_regs start = {arch_uc_pc(uc), arch_uc_sp(uc), arch_uc_fp(uc), 0, 0, 0, 0, (uintptr_t)env, arch_uc_lr(uc),
                           sampling.config.vtable ? arch_uc_java_receiver(uc) : 0, sampling.config.comp_task, tid};
        arch_uc_vm_regs(uc, &start.dx, &start.bx, &start.r13, &start.ax);
        safe_read_note_stack_pointer(start.sp);
        if (sampling.config.cstack == CSTACK_VM)
            return sampling.config.agct ? collect_interleaved(start, env, tid, raw, out, ucontext)
                                        : collect_self_named(start, env, tid, out);
        walk_end end;
        n = (uint32_t)(sampling.config.cstack == CSTACK_DWARF ? walk_dwarf(start, out, SAMPLE_MAX_NATIVE_FRAMES, &end)
                                                     : walk_fp(start, out, SAMPLE_MAX_NATIVE_FRAMES, &end));
    }
    return append_java_frames(env ? java_trace(ucontext, env, raw) : 0, env, tid, raw, out, n);
}

/* Puts the kernel frames the engine recorded for this sample (perf_events), leaf first, before the 'depth'
 * user frames already in out, which move up to make room (only samples taken in the kernel have any). */
static uint32_t kernel_stack(const engine *e, const siginfo_t *info, trace_frame *out, uint32_t depth) {
    if (!e || !e->signal || !e->signal->kernel_frames) return 0;
    uintptr_t pcs[SAMPLE_MAX_KERNEL_FRAMES];
    int n = e->signal->kernel_frames(info, pcs, SAMPLE_MAX_KERNEL_FRAMES);
    if (n <= 0) return 0;
    for (uint32_t i = depth; i-- > 0;) out[i + (uint32_t)n] = out[i];
    for (int i = 0; i < n; i++) out[i] = (trace_frame){pcs[i], 0, FRAME_KERNEL};
    return (uint32_t)n;
}

/* The kernel frames come first but are read last: the lines of the ring they are in load while the user
 * stack is walked (one or two cache misses fewer per sample). The frame buffer has room
 * for them (sample_frames_per_buffer). */
uint32_t stack_collect(const engine *e, const siginfo_t *info, void *ucontext, JNIEnv *env, uint32_t tid,
                       asgct_frame *raw, trace_frame *out) {
    if (e && e->signal && e->signal->begin_kernel_frames) e->signal->begin_kernel_frames(info);
    uint32_t depth = user_stack(ucontext, env, tid, raw, out);
    depth += kernel_stack(e, info, out, depth);
    return frame_bound_stack(out, depth, (uint32_t)sampling.config.max_depth, (uint32_t)sampling.config.cut_depth);
}
