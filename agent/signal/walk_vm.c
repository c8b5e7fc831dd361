/*
 * [signal-safe] walk_vm: one walk over every frame of the interrupted thread, leaf to root.
 *
 * Physical frames: outside the code cache, a native frame, stepped by DWARF (frame pointer as fallback).
 * Inside it, codeblob says what the pc is in:
 *  - an nmethod (C1/C2-compiled method or native method wrapper) or any stub with a frame: the frame is
 *    CodeBlob::_frame_size words above its unextended sp; the return address is the top word, the caller's
 *    rbp the one below it (HotSpot's x86_64 layout, frame::sender_for_compiled_frame);
 *  - the interpreter: an rbp-based frame whose Method* sits at a fixed slot below rbp and whose caller's
 *    unextended sp is saved at rbp[-1] (a compiled caller's frame size counts from there);
 *  - the call stub's return address: an entry frame, where VM code called Java; it is rbp-based, and its
 *    caller (JavaCalls::call_helper) is native again; other stubs without a frame size that call out
 *    (StubRoutines' stubs such as the nmethod entry barrier) are rbp-based too;
 *  - a leaf frame not yet built (prologue) or already torn down (epilogue), or a frameless stub: the return
 *    address is at sp, or one word above it once rbp was pushed; the first candidate that is code wins.
 *
 * Which Java methods those frames run the walker reads itself (the default): an interpreted frame's
 * Method* and bytecode pointer sit at fixed slots below its rbp; a compiled frame's methods, inlined ones
 * first, and their bcis come from the nmethod's PcDesc for the pc and its scopes (nmethod_scopes). A
 * Method* becomes a jmethodID through ConstMethod -> ConstantPool -> InstanceKlass -> the class's
 * jmethodID cache at the method's idnum, checked by reading the Method* back through the jmethodID found,
 * and cached; only the jmethodIDs the agent preallocated at class preparation can be found this way, a
 * method without one is an [unknown_Java] frame in its place. Nothing checks the physical walk against
 * another source then, so frames that are not certain are recognised from the code: a leaf in its
 * prologue by where rbp was saved, a leaf in its epilogue by its instructions, a guessed return address in
 * the code cache by the call before it. A sample inside a stub gets the stub as its leaf frame.
 *
 * With features=agct the Java frames are AsyncGetCallTrace's, taken just before the walk: consumed leaf
 * to root, each physical Java frame takes every frame up to and including the first one whose Method* is
 * the frame's own (the frames before it were inlined into it). A frame whose method is not where
 * AsyncGetCallTrace says ends the walk as a counted failure, and the sample falls back to stitching; when
 * AsyncGetCallTrace gives nothing, the walker names the frames itself as above.
 */
#include "walk_vm.h"

#include "a64_code.h"
#include "arch.h"
#include "codeblob.h"
#include "codeheap.h"
#include "compile_task.h"
#include "deopt_frames.h"
#include "native_map.h"
#include "nmethod_memo.h"
#include "nmethod_scopes.h"
#include "pc_cache.h"
#include "receiver_class.h"
#include "safe_read.h"
#include "stub_frames.h"
#include "transit_frames.h"

#include <stdatomic.h>
#include <string.h>

#define WORD sizeof(uintptr_t)
#define MAX_FRAME_BYTES ((uintptr_t)1 << 20)
#define METHOD_CACHE 8192
#define METHOD_PROBES 16
#define JVM_ACC_NATIVE 0x0100   /* the class file's ACC_NATIVE, kept as is in Method::_access_flags */

/* jmethodID -> Method*: the word a jmethodID points to changes only when its class is redefined or
 * unloaded; a stale entry costs one mismatch (a counted fallback), never a wrong name. */
static _Atomic uintptr_t cache_ids[METHOD_CACHE], cache_methods[METHOD_CACHE];

static uintptr_t method_of(jmethodID id) {
    uintptr_t key = (uintptr_t)id, method = 0;
    if (!key) return 0;
    unsigned slot = (unsigned)((key >> 3) * 0x9e3779b97f4a7c15ULL >> 51) & (METHOD_CACHE - 1);
    for (unsigned i = 0; i < METHOD_PROBES; i++) {
        unsigned s = (slot + i) & (METHOD_CACHE - 1);
        uintptr_t k = atomic_load_explicit(&cache_ids[s], memory_order_acquire);
        if (k == key) {
            method = atomic_load_explicit(&cache_methods[s], memory_order_acquire);
            if (method) return method;
            break;
        }
        if (k) continue;
        if (!safe_read_word(key, &method) || !method) return 0;
        uintptr_t expected = 0;
        if (atomic_compare_exchange_strong(&cache_ids[s], &expected, key))
            atomic_store_explicit(&cache_methods[s], method, memory_order_release);
        return method;
    }
    return safe_read_word(key, &method) ? method : 0;
}

/* Method* -> jmethodID and the bytecodes' bounds, for frames the walker names itself. */
static walk_vm_layout layout;
static _Atomic bool layout_set;
/* One entry per slot, the four words side by side: a lookup touches one cache line (and one page), not one
 * in each of four arrays (on a VM with shadow paging a rarely touched page costs microseconds). */
static struct {
    _Atomic uintptr_t key, id;
    uintptr_t code, code_size;
} named[METHOD_CACHE] __attribute__((aligned(64)));

void walk_vm_set_layout(const walk_vm_layout *l) {
    layout = *l;
    atomic_store(&layout_set, true);
}

bool walk_vm_names_frames(void) {
    return atomic_load(&layout_set) && nmethod_scopes_ready();
}

static bool read_u(uintptr_t addr, unsigned width, uintptr_t *out) {
    int64_t v;
    if (!codeblob_read_field(addr, width, &v)) return false;
    *out = (uintptr_t)v & (width == 8 ? ~(uintptr_t)0 : (((uintptr_t)1 << (width * 8)) - 1));
    return true;
}

typedef struct {
    uintptr_t id, code, code_size;
} named_method;

static bool name_method_uncached(uintptr_t method, named_method *out) {
    uintptr_t cm, cp, holder, ids, length, idnum, id, back;
    if (!safe_read_word(method + layout.const_method, &cm) || !safe_read_word(cm + layout.constants, &cp) ||
        !read_u(cm + layout.idnum, layout.idnum_width, &idnum) ||
        !read_u(cm + layout.code_size, layout.code_size_width, &out->code_size) ||
        !safe_read_word(cp + layout.pool_holder, &holder) || !safe_read_word(holder + layout.jmethod_ids, &ids) ||
        !ids || !safe_read_word(ids, &length) || idnum + 1 > length ||
        !safe_read_word(ids + (idnum + 1) * WORD, &id) || !id || !safe_read_word(id, &back) || back != method)
        return false;
    out->id = id;
    out->code = cm + layout.const_method_size;   /* the bytecodes follow the ConstMethod */
    return true;
}

static bool name_method(uintptr_t method, named_method *out) {
    unsigned slot = (unsigned)((method >> 3) * 0x9e3779b97f4a7c15ULL >> 51) & (METHOD_CACHE - 1);
    for (unsigned i = 0; i < METHOD_PROBES; i++) {
        unsigned s = (slot + i) & (METHOD_CACHE - 1);
        uintptr_t k = atomic_load_explicit(&named[s].key, memory_order_acquire);
        if (k == method) {
            uintptr_t id = atomic_load_explicit(&named[s].id, memory_order_acquire);
            if (!id) break;   /* being filled by another handler */
            *out = (named_method){id, named[s].code, named[s].code_size};
            return true;
        }
        if (k) continue;
        if (!name_method_uncached(method, out)) return false;
        uintptr_t expected = 0;
        if (atomic_compare_exchange_strong(&named[s].key, &expected, method)) {
            named[s].code = out->code;
            named[s].code_size = out->code_size;
            atomic_store_explicit(&named[s].id, out->id, memory_order_release);
        }
        return true;
    }
    return name_method_uncached(method, out);
}

const char *walk_vm_failure_name(vmwalk_failure f) {
    static const char *const names[VMWALK_REASON_COUNT] = {"ok",           "no_code_blob", "bad_frame",
                                                           "unmatched_method", "frames_left", "deopt",
                                                           "no_java_trace", "unnamed_method", "no_scopes", "no_unwind"};
    return (unsigned)f < VMWALK_REASON_COUNT ? names[f] : "?";
}

typedef struct {
    uintptr_t pc, sp, fp, usp;   /* usp: the unextended sp a compiled frame's size counts from */
    bool leaf, name_frames;
    const asgct_frame *java;
    int java_count, next_java;
    trace_frame *out;
    int max, n;
    vmwalk_result *r;
    uintptr_t dx, bx, r13, ax;     /* the leaf's rdx, rbx, r13 and rax (walk_regs) */
    uintptr_t env;                 /* the thread's JNIEnv (walk_regs) */
    uintptr_t lr;                  /* the leaf's link register (aarch64; 0 on x86_64) */
    uintptr_t receiver;            /* the leaf's first Java argument, with features=vtable (walk_regs) */
    bool compile_tasks;            /* features=comptask (walk_regs) */
    uint32_t tid;                  /* the thread's OS id, with features=comptask (walk_regs) */
    nmethod_memo seen;             /* the nmethods identified in this walk (see identify) */
} walk_state;

static bool fail(walk_state *w, vmwalk_failure why);

static bool is_code(uintptr_t pc) {
    return pc >= 4096 && (codeheap_contains(pc) || native_map_contains(pc));
}

static bool emit(walk_state *w, trace_frame f) {
    if (w->n >= w->max) {
        w->r->truncated = true;
        return false;
    }
    w->out[w->n++] = f;
    return true;
}

/* The walker's own name for one Java frame: its jmethodID and the bci, checked against the method's code
 * size. A method without a jmethodID (none was preallocated, or its class is being unloaded) becomes an
 * [unknown_Java] frame in its place, counted, and the walk goes on: the frames around it are still right. */
static bool emit_named(walk_state *w, uintptr_t method, int32_t bci, frame_kind kind) {
    named_method m;
    if (!name_method(method, &m)) {
        w->r->unnamed++;
        return emit(w, (trace_frame){MARKER_UNKNOWN_JAVA, 0, FRAME_MARKER});
    }
    if (bci < 0 || (uintptr_t)bci >= m.code_size) bci = 0;
    return emit(w, (trace_frame){m.id, bci, kind});
}

static bool self_naming(const walk_state *w) {
    return w->java_count == 0 && w->name_frames && atomic_load_explicit(&layout_set, memory_order_acquire);
}

/* An interpreted frame named by the walker: bcp is the interpreter's bytecode pointer. */
static bool emit_interpreted(walk_state *w, uintptr_t method, uintptr_t bcp) {
    named_method m;
    int32_t bci = 0;
    if (name_method(method, &m) && bcp >= m.code && bcp < m.code + m.code_size) bci = (int32_t)(bcp - m.code);
    w->r->self_named++;
    return emit_named(w, method, bci, FRAME_JAVA_INTERPRETED);
}

static frame_kind compiled_kind(nmethod_tier tier) {
    return tier == NMETHOD_TIER_C1 ? FRAME_JAVA_C1 : FRAME_JAVA_JIT;
}

/* A compiled frame named by the walker: every scope at its pc, the inlined ones first. Without readable
 * debug information (native method wrappers have none), the nmethod's own method. A chain named without
 * loss is remembered for this pc in nmethod 'id' (when known, NULL otherwise: pc_cache.h). */
static bool emit_compiled(walk_state *w, const codeblob *b, const pc_cache_identity *id) {
    int first = w->n, unnamed = w->r->unnamed, no_scopes = w->r->no_scopes;
    nmethod_scope scopes[NMETHOD_SCOPES_MAX];
    nmethod_tier tier = NMETHOD_TIER_UNKNOWN;
    /* A frame HotSpot has deoptimised returns into its nmethod's deoptimisation handler; until it is resumed
     * it is still the compiled frame it was, at the pc the VM saved in it. */
    uintptr_t pc = w->leaf ? 0 : codeblob_deopt_original_pc(b, w->pc, w->usp);
    if (pc) w->r->deopt_frames++;
    int n = nmethod_scopes_at(b->blob, b->code_begin, pc ? pc : w->pc, b->method, scopes, &tier);
    if (n == 0) {
        /* A native method's wrapper has no debug information to read: not a loss. */
        uintptr_t flags;
        bool native = layout.access_flags_width &&
                      read_u(b->method + layout.access_flags, layout.access_flags_width, &flags) &&
                      (flags & JVM_ACC_NATIVE);
        if (!native) w->r->no_scopes++;
        /* The method handle intrinsics (MethodHandle.invokeBasic, linkToStatic...: native methods the VM
         * makes itself, outside their class's method array) have no jmethodID. Their frame is an adapter
         * between two Java frames: left out, counted as unnamed, rather than a failure marker. */
        named_method m;
        if (native && !name_method(b->method, &m)) {
            w->r->unnamed++;
            return true;
        }
        scopes[0] = (nmethod_scope){b->method, 0};
        n = 1;
    }
    w->r->self_named++;
    for (int i = 0; i < n; i++) {
        if (!emit_named(w, scopes[i].method, scopes[i].bci, i + 1 < n ? FRAME_JAVA_INLINED : compiled_kind(tier)))
            return false;
    }
    /* Not cached: a frame at its nmethod's deoptimisation handler (named from its saved pc, not its own: other
     * frames return to that handler with other saved pcs), also when that is not readable. A leaf is cached
     * only where it pushes out no return address (pc_cache_put_leaf). */
    if (id && !pc && !codeblob_may_be_deopt_handler(b, w->pc) && id->blob == b->blob && id->method == b->method && w->r->unnamed == unnamed &&
        w->r->no_scopes == no_scopes && n <= PC_CACHE_FRAMES) {
        pc_cache_value v = {.blob = *b, .count = n};
        memcpy(v.frames, w->out + first, (size_t)n * sizeof(trace_frame));
        if (w->leaf) pc_cache_put_leaf(w->pc, id, &v);
        else pc_cache_put(w->pc, id, &v);
    }
    return true;
}

/* A compiled frame whose chain the cache held for its pc. */
static bool emit_cached(walk_state *w, const pc_cache_value *v) {
    w->r->self_named++;
    for (int i = 0; i < v->count; i++) {
        if (!emit(w, v->frames[i])) return false;
    }
    return true;
}

/* Places AsyncGetCallTrace's frames up to the one whose Method* is the physical frame's, which gets the
 * frame's own kind; the frames before it were inlined into it. */
static bool emit_java(walk_state *w, uintptr_t method, frame_kind kind) {
    int k = w->next_java;
    while (k < w->java_count && method_of(w->java[k].method_id) != method) k++;
    /* A leaf frame being entered (nmethod prologue, interpreter method entry) is not yet a frame for
     * AsyncGetCallTrace, which starts from its caller: the walk goes on without it. */
    if (k == w->java_count && w->leaf && w->java_count) return true;
    if (k == w->java_count) {
        w->r->failure = w->java_count ? VMWALK_UNMATCHED : VMWALK_NO_TRACE;
        return false;
    }
    for (; w->next_java <= k; w->next_java++) {
        const asgct_frame *f = &w->java[w->next_java];
        frame_kind own = w->next_java == k ? kind : FRAME_JAVA_INLINED;
        if (!emit(w, (trace_frame){(uint64_t)(uintptr_t)f->method_id, f->lineno, own})) return false;
    }
    return true;
}

static bool fail(walk_state *w, vmwalk_failure why) {
    w->r->failure = why;
    return false;
}

static bool step_fp_frame(walk_state *w, bool interpreted);

/* Moves to the caller whose return address is at 'ret_at', with sp just above it. */
static bool step_to(walk_state *w, uintptr_t ret_at, uintptr_t fp) {
    uintptr_t ret;
    if (ret_at < w->sp || ret_at - w->sp > MAX_FRAME_BYTES || !safe_read_word(ret_at, &ret) ||
        !is_code(ret = arch_code_address(ret)))
        return false;
    w->pc = ret;
    w->sp = w->usp = ret_at + WORD;
    w->fp = fp;
    return true;
}

/* True when the instruction before 'ret' in the code cache is a call, as before every return address
 * there: HotSpot's x86_64 calls are `call rel32`, `call reg` (with or without REX.B) and `call [reg+d8]`
 * (the interpreter's). A stale word on the stack that merely points into code usually fails this. */
static bool after_call(uintptr_t ret) {
    if (!ARCH_HOTSPOT_X86_CODE) return a64_after_call(ret);
    uint8_t c[6];
    for (unsigned i = 0; i < sizeof(c); i++) {
        int64_t b;
        if (!codeblob_read_field(ret - sizeof(c) + i, 1, &b)) return false;
        c[i] = (uint8_t)b;
    }
    return c[1] == 0xE8 || (c[4] == 0xFF && (c[5] & 0xF8) == 0xD0) ||
           (c[3] == 0xFF && (c[4] & 0xF8) == 0x50) || (c[0] == 0xFF && (c[1] & 0xF8) == 0x90);
}

/* The interpreter does not call what it invokes: it pushes the return entry of the invoke bytecode and
 * jumps to the method's entry (an I2C adapter, a method handle intrinsic), so a return address into the
 * interpreter follows no call. Its frame is then the caller's, rbp-based right above the return address. */
static bool interpreter_return(uintptr_t ret, uintptr_t ret_at, uintptr_t fp) {
    return ret >= codeblob_vm.interp_low && ret < codeblob_vm.interp_high && fp > ret_at &&
           fp - ret_at < MAX_FRAME_BYTES;
}

/* A return address HotSpot patched to its nmethod's deoptimisation handler (the frame above ret_at being
 * deoptimised): it follows no call, but it is that exact address and the frame keeps its original pc, a pc
 * of the same nmethod, at its unextended sp (right above the return address) + nmethod::_orig_pc_offset. */
static bool deopt_handler_return(uintptr_t ret, uintptr_t ret_at) {
    codeblob caller;
    return codeblob_find(ret, &caller) && caller.kind == BLOB_NMETHOD &&
           codeblob_deopt_original_pc(&caller, ret, ret_at + WORD) != 0;
}

/* Whether ret, found at (or held for) ret_at, can be a return address in the code cache: one follows a call,
 * or is the interpreter's return entry under its caller's frame, or a deoptimisation handler. */
static bool plausible_return(uintptr_t ret, uintptr_t ret_at, uintptr_t fp) {
    return !codeheap_contains(ret) || after_call(ret) || interpreter_return(ret, ret_at, fp) ||
           deopt_handler_return(ret, ret_at);
}

/* step_to for a guessed return address: a plausible one (above). */
static bool step_to_guessed(walk_state *w, uintptr_t ret_at, uintptr_t fp) {
    uintptr_t ret;
    return safe_read_word(ret_at, &ret) && plausible_return(arch_code_address(ret), ret_at, fp) &&
           step_to(w, ret_at, fp);
}

/* A return address held in a register (or read where transit_frames says it is), with the caller's sp known:
 * checked as step_to_guessed checks one read from the stack right below that sp. */
static bool step_to_held_return(walk_state *w, uintptr_t ret, uintptr_t caller_sp) {
    ret = arch_code_address(ret);
    if (caller_sp < w->sp || caller_sp - w->sp > MAX_FRAME_BYTES || !is_code(ret) ||
        !plausible_return(ret, caller_sp - WORD, w->fp))
        return false;
    w->pc = ret;
    w->sp = w->usp = caller_sp;
    return true;
}

/* step_to_held_return for a return address on the stack at ret_at, the caller's sp elsewhere than right above it. */
static bool step_to_stacked_return(walk_state *w, uintptr_t ret_at, uintptr_t caller_sp) {
    uintptr_t ret;
    return safe_read_word(ret_at, &ret) && step_to_held_return(w, ret, caller_sp);
}

/* step_fp_frame (not interpreted) for a frame whose rbp may not be a frame pointer: only when rbp is close above
 * sp and the word above it is a plausible return address. */
static bool step_plausible_fp_frame(walk_state *w) {
    uintptr_t fp = w->fp, ret;
    return fp > w->sp && fp - w->sp < 4096 && safe_read_word(fp + WORD, &ret) && is_code(ret) &&
           plausible_return(ret, fp + WORD, fp) && step_fp_frame(w, false);
}

/* A leaf frame that is not (or no longer) built: the return address at sp, or above a pushed rbp, or, for
 * a prologue that has allocated the frame but not reached its frame-complete point, where the whole frame
 * puts it; for a stub that built an rbp frame, above rbp. */
static bool step_unbuilt_leaf(walk_state *w, uintptr_t frame_bytes) {
    uintptr_t saved_fp, fp = w->fp;
    /* Until the frame is complete, rbp still holds the caller's value: where the prologue has saved it
     * (at the top of an allocated frame, or pushed at sp), the return address is right above. This comes
     * first, as the stack below a frame being built holds stale return addresses of earlier calls. */
    if (frame_bytes >= 2 * WORD && safe_read_word(w->sp + frame_bytes - 2 * WORD, &saved_fp) && saved_fp == fp &&
        step_to_guessed(w, w->sp + frame_bytes - WORD, fp))
        return true;
    if (safe_read_word(w->sp, &saved_fp) && saved_fp == fp && step_to_guessed(w, w->sp + WORD, fp)) return true;
    if (step_to_guessed(w, w->sp, fp)) return true;
    /* A stub past its `push rbp; mov rbp, rsp` (most StubRoutines' stubs, the intrinsics among them) has its
     * frame at rbp; the words right above sp are its own (arguments, spills, or never written and stale),
     * so an rbp frame whose return address checks out comes before reading them as a saved rbp. */
    if (!frame_bytes && step_plausible_fp_frame(w)) return true;
    if (safe_read_word(w->sp, &saved_fp) && step_to_guessed(w, w->sp + WORD, saved_fp)) return true;
    if (frame_bytes >= 2 * WORD && safe_read_word(w->sp + frame_bytes - 2 * WORD, &saved_fp) &&
        step_to_guessed(w, w->sp + frame_bytes - WORD, saved_fp))
        return true;
    return !frame_bytes && fp > w->sp && fp - w->sp < 4096 && step_fp_frame(w, false);
}

/* An rbp-based frame: the interpreter's and the call stub's. */
static bool step_fp_frame(walk_state *w, bool interpreted) {
    uintptr_t fp = w->fp, saved_fp, ret, sender_sp = fp + 2 * WORD;
    if (fp < w->sp || fp - w->sp > MAX_FRAME_BYTES || !safe_read_word(fp, &saved_fp) ||
        !safe_read_word(fp + WORD, &ret) || !is_code(ret = arch_code_address(ret)))
        return false;
    uintptr_t usp = sender_sp;
    if (interpreted) {
        if (!safe_read_word(fp + (uintptr_t)(intptr_t)codeblob_interp_sender_sp_slot() * WORD, &usp) ||
            usp < w->sp || usp > sender_sp + MAX_FRAME_BYTES)
            return false;
    }
    w->pc = ret;
    w->sp = sender_sp;
    w->usp = usp;
    w->fp = saved_fp;
    return true;
}

/* The nmethod entry barrier's stub (JDK 21+) pushes a word for its own use before building its rbp frame,
 * so its return address is one word further up than in a plain rbp frame. */
static bool step_stub_frame(walk_state *w) {
    uintptr_t fp = w->fp, saved_fp;
    if (fp < w->sp || fp - w->sp > MAX_FRAME_BYTES || !safe_read_word(fp, &saved_fp)) return false;
    return step_to(w, fp + 2 * WORD, saved_fp);
}

/* Where a leaf compiled frame past its frame-complete point stands in its epilogue, from the code at pc.
 * HotSpot's x86_64 epilogue of a compiled method is `add rsp, N; pop rbp; [cmp rsp, [r15 + d8]; ja
 * poll_stub;] ret` (the return poll since JDK 16): at `pop rbp` the caller's rbp is at sp and the return
 * address above it; past it, the return address is at sp. */
typedef enum { EPILOGUE_NONE, EPILOGUE_AT_POP, EPILOGUE_POPPED } epilogue_state;

static epilogue_state epilogue_at(uintptr_t pc) {
    uint8_t code[7];
    for (unsigned i = 0; i < sizeof(code); i++) {
        int64_t b;
        if (!codeblob_read_field(pc + i, 1, &b)) return EPILOGUE_NONE;
        code[i] = (uint8_t)b;
    }
    if (code[0] == 0x5D) return EPILOGUE_AT_POP;                                          /* pop rbp */
    if (code[0] == 0xC3) return EPILOGUE_POPPED;                                          /* ret */
    if (code[0] == 0x49 && code[1] == 0x3B && code[2] == 0x67) return EPILOGUE_POPPED;    /* cmp rsp, [r15+d8] */
    if (code[0] == 0x0F && code[1] == 0x87 && code[6] == 0xC3) return EPILOGUE_POPPED;    /* ja poll_stub; ret */
    return EPILOGUE_NONE;
}

/* The identity of the nmethod at the frame's pc: from the nmethods this walk has already met (nmethod_memo.h
 * says why that is safe), else read (pc_cache_identify). *read says which; a read identity is remembered
 * once the frame's code range is known (remember_nmethod). */
static bool identify(walk_state *w, pc_cache_identity *id, bool *read) {
    /* The cache slot pc_cache_get reads next depends on the pc alone: its lines load while the identity is
     * found, instead of after. */
    pc_cache_prefetch(w->pc);
    *read = !nmethod_memo_find(&w->seen, w->pc, id);
    return !*read || pc_cache_identify(w->pc, id);
}

static void remember_nmethod(walk_state *w, const codeblob *b, const pc_cache_identity *id) {
    if (b->kind == BLOB_NMETHOD && b->blob == id->blob && b->method == id->method)
        nmethod_memo_add(&w->seen, b->code_begin, b->code_end, id);
}

/* Steps to the return address at ret_at when it is a deoptimisation handler (deopt_handler_return). */
static bool deopt_handler_return_at(walk_state *w, uintptr_t ret_at, uintptr_t fp) {
    uintptr_t ret;
    return safe_read_word(ret_at, &ret) && deopt_handler_return(ret, ret_at) && step_to(w, ret_at, fp);
}

/* The deoptimisation blob, returned into from the VM (Deoptimization::fetch_unroll_info): it saved the
 * registers in an rbp frame (RegisterSaver) right below the frame being deoptimised, whose return address
 * is its nmethod's deoptimisation handler. Later (Deoptimization::unpack_frames) the blob's frame is another
 * one: step_over_unpacking. */
static bool step_out_of_deopt_blob(walk_state *w) {
    walk_state saved = *w;
    codeblob caller;
    if (step_fp_frame(w, false) && codeblob_find(w->pc, &caller) && codeblob_deopt_original_pc(&caller, w->pc, w->usp))
        return true;
    *w = saved;
    return false;
}

static bool in_interpreter(uintptr_t pc) {
    return pc >= codeblob_vm.interp_low && pc < codeblob_vm.interp_high;
}

/* The deoptimisation blob, or C2's uncommon trap blob, calling Deoptimization::unpack_frames: it has
 * replaced the compiled frame being deoptimised by skeletal interpreter frames (deopt_frames.h) and pushed
 * its own rbp frame below them, returning into the youngest (the sp it called from lies between its rbp
 * and its frame size below). While the thread's vframeArray is there, the frames are named from it, after
 * checking that its frame count leads through rbp frames returning into the interpreter to the outermost
 * one, whose sender sp is the caller's sp the array recorded; the walk goes on from that caller. Once the
 * array is gone, every frame is filled: they are walked as interpreted frames. Else false. */
static bool unpacking_frame(const walk_state *w, const codeblob *b, walk_state *frames) {
    /* rbp is the blob's own, within its frame above sp, and it returns into the interpreter. */
    *frames = *w;
    return w->fp >= w->sp && w->fp - w->sp <= b->frame_bytes && step_fp_frame(frames, false) &&
           in_interpreter(frames->pc);
}

static bool step_over_unpacking(walk_state *w, const codeblob *b) {
    walk_state frames;
    if (!unpacking_frame(w, b, &frames)) return false;
    deopt_unpacking u;
    deopt_state state = deopt_frames_unpacking(w->env, &u);
    if (state == DEOPT_DONE) {
        *w = frames;
        return true;
    }
    if (state != DEOPT_UNPACKING || !self_naming(w)) return false;
    walk_state caller = frames;
    for (int k = 0; k < u.count; k++) {
        if (!in_interpreter(caller.pc) || !step_fp_frame(&caller, true)) return false;
    }
    if (caller.usp != u.caller_sp) return false;
    for (int k = 0; k < u.count; k++) {
        uintptr_t method;
        int32_t bci;
        if (!deopt_frames_element(&u, k, &method, &bci)) return false;
        w->r->self_named++;
        w->r->deopt_frames++;
        if (!emit_named(w, method, bci, FRAME_JAVA_INTERPRETED)) return false;
    }
    w->pc = caller.pc;
    w->sp = caller.sp;
    w->usp = caller.usp;
    w->fp = caller.fp;
    return true;
}

/* A leaf in the deoptimisation blob, only while no vframeArray is on the thread (the frames on the stack
 * are then not in flux): before Deoptimization::fetch_unroll_info, entered from the deoptimisation handler
 * that pushed its own address as the return address above the frame being deoptimised, and building an rbp
 * frame (`push rbp; mov rbp, rsp`, RegisterSaver) below it; or after unpack_frames, in its rbp frame above
 * the filled interpreter frames, until its `leave; ret`. */
static bool step_deopt_blob_leaf(walk_state *w, const codeblob *b) {
    deopt_unpacking u;
    uintptr_t saved_fp;
    if (deopt_frames_unpacking(w->env, &u) != DEOPT_DONE) return false;
    switch (stub_frames_enter_at(w->pc)) {
    case ENTER_AT_PUSH:
        return deopt_handler_return_at(w, w->sp, w->fp);
    case ENTER_AT_MOV:
        return safe_read_word(w->sp, &saved_fp) && deopt_handler_return_at(w, w->sp + WORD, saved_fp);
    case ENTER_AT_RET:
        return false;
    default:
        return step_out_of_deopt_blob(w) || step_over_unpacking(w, b);
    }
}

/* A return address in the code cache at 'at', right after a call: the caller of a frameless stub that
 * called the VM (StubRoutines' forward_exception calls SharedRuntime::exception_handler_for_return_address
 * with its caller's return address at sp, or one word above when it aligned the stack for the call). */
static bool step_to_call_site(walk_state *w, uintptr_t at) {
    uintptr_t ret;
    return safe_read_word(at, &ret) && codeheap_contains(ret) && after_call(ret) && step_to(w, at, w->fp);
}

/* The exception pc in rdx as the return address of the compiled frame at sp (C2's exception blob before
 * `push rdx` and after `pop rdx`): HotSpot makes it the pc of a call in that frame's nmethod. */
static bool step_to_register_return(walk_state *w, uintptr_t ret) {
    codeblob caller;
    if (!codeheap_contains(ret) || !after_call(ret) || !codeblob_find(ret, &caller) || caller.kind != BLOB_NMETHOD)
        return false;
    w->pc = ret;
    w->usp = w->sp;
    return true;
}

/* A leaf in a stub stub_frames knows the frame of: 1 stepped to its caller, -1 its caller did not check out,
 * 0 not such a stub or a pc its rule does not know. */
static int step_known_stub(walk_state *w, const codeblob *b) {
    int words = -1;
    switch (stub_frames_kind(b)) {
    case STUB_EXCEPTION_BLOB:
        if (!stub_frames_exception_blob(b, w->pc, &words)) return 0;
        if (words < 0) return step_to_register_return(w, w->dx) ? 1 : -1;
        return step_to_guessed(w, w->sp + (uintptr_t)words * WORD, w->fp) ? 1 : -1;
    case STUB_C1_SUBTYPE_CHECK:
        if ((words = stub_frames_subtype_check_depth(b, w->pc)) < 0) return 0;
        if (!step_to_guessed(w, w->sp + (uintptr_t)words * WORD, w->fp)) return -1;
        w->usp += 2 * WORD;   /* the caller's frame is above the two arguments it pushed */
        return 1;
    case STUB_ADAPTER: {
        uintptr_t caller_sp;
        switch (transit_c2i(b, w->pc, w->sp, w->r13, &caller_sp)) {
        case TRANSIT_RET_IN_RAX:
            return step_to_held_return(w, w->ax, caller_sp) ? 1 : -1;
        case TRANSIT_RET_AT_SP:
            return step_to_stacked_return(w, w->sp, caller_sp) ? 1 : -1;
        default:
            return 0;
        }
    }
    default:
        return 0;
    }
}

/* The method an interpreter entry is entering (its Method* in rbx) as the leaf frame, when frames are named. */
static bool emit_entered(walk_state *w) {
    return !self_naming(w) || emit_interpreted(w, w->bx, 0);
}

/* A leaf in the interpreter whose rbp is no interpreter frame (below sp): the method entry before it builds
 * the frame (the Method* in rbx, the caller's sp in r13 (a compiled caller's: the C2I adapter put the
 * arguments between), the return address at sp) or remove_activation after `leave` (the return address at
 * sp, the caller's sp in rbx). The method being entered is named when rbx names one. */
static bool step_interpreter_unbuilt(walk_state *w) {
    walk_state caller = *w;
    named_method m;
    bool entry = w->bx && name_method(w->bx, &m);
    /* The return address in a register: rax while the entry pushes the locals, r13 at the return's end. */
    if (entry && transit_interp_entry_popped(w->pc)) return emit_entered(w) && step_to_held_return(w, w->ax, w->r13);
    if (!entry && transit_interp_return_popped(w->pc)) return step_to_held_return(w, w->r13, w->bx);
    if (!entry && transit_interp_exception_popped(w->pc)) return step_to_held_return(w, w->dx, w->bx);
    /* At the entry's `mov rbp, rsp`: the caller's rbp pushed at sp, the return address above it. */
    uintptr_t caller_sp;
    if (entry && stub_frames_enter_at(w->pc) == ENTER_AT_MOV)
        return emit_entered(w) && step_to_stacked_return(w, w->sp + WORD, w->r13);
    switch (entry ? TRANSIT_ELSEWHERE : transit_interp_exception_leaf(w->pc, w->sp, &caller_sp)) {
    case TRANSIT_RET_AT_SP:
        return step_to_stacked_return(w, w->sp, caller_sp);
    case TRANSIT_RET_IN_RDX:
        return step_to_held_return(w, w->dx, caller_sp);
    default:
        break;
    }
    uintptr_t sender_sp = entry ? w->r13 : w->bx;
    if (!step_to_guessed(&caller, w->sp, w->fp)) return false;
    if (sender_sp >= caller.sp && sender_sp - caller.sp < MAX_FRAME_BYTES) caller.usp = sender_sp;
    if (entry && !emit_entered(w)) return false;
    w->pc = caller.pc;
    w->sp = caller.sp;
    w->usp = caller.usp;
    w->fp = caller.fp;
    return true;
}

/* A call from the interpreter's exception continuation, its activation already removed: the caller's return
 * address and sp are on the stack the continuation pushed them on (transit_frames.h). */
static bool step_interpreter_exception_call(walk_state *w) {
    unsigned words;
    if (!transit_interp_exception_call(w->pc, &words)) return false;
    uintptr_t at = w->sp + words * WORD;
    return step_to_stacked_return(w, at, at + 2 * WORD);
}

/* A leaf in the interpreter's method entry between `enter` and the push of the Method* (TemplateInterpreter's
 * generate_fixed_frame: `push rax` (the return address); enter; push r13 (the sender sp); push 0 (the last
 * sp); ...; push rbx (the Method*)): rbp is the new frame's, but the slots below it are not all written,
 * and what is not holds whatever an earlier frame left there. The method being entered is rbx, named when
 * rbx names one (else an [unknown_Java] in its place); the caller's sp is the sender sp slot once pushed,
 * r13 before. */
static bool step_interpreter_building(walk_state *w) {
    walk_state caller = *w;
    uintptr_t sender_sp_at = w->fp + (uintptr_t)(intptr_t)codeblob_interp_sender_sp_slot() * WORD, usp = w->r13;
    if ((w->sp <= sender_sp_at && !safe_read_word(sender_sp_at, &usp)) || !step_fp_frame(&caller, false) ||
        usp < caller.sp || usp - caller.sp > MAX_FRAME_BYTES)
        return false;
    if (self_naming(w) && !emit_interpreted(w, w->bx, 0)) return false;
    w->pc = caller.pc;
    w->sp = caller.sp;
    w->usp = usp;
    w->fp = caller.fp;
    return true;
}

/* aarch64: a leaf in a compiled method or a stub, whose caller may still be in lr (a64_code.h): before its
 * frame is complete (sp as far below the caller's as the prologue has taken it), in its epilogue (x29 and lr
 * restored), or in a stub without a frame size (its caller in lr, unless it built a frame record holding lr
 * or has called out since, lr then pointing into the stub itself). Elsewhere the frame as its size says. */
static bool step_a64_leaf(walk_state *w, const codeblob *b) {
    bool sized = b->frame_bytes >= 2 * WORD;
    uintptr_t delta, saved_fp, ret;
    if (sized && !(b->frame_complete && w->pc >= b->frame_complete))
        return a64_prologue_sp_delta(b->code_begin, w->pc, &delta) && step_to_held_return(w, w->lr, w->sp + delta);
    switch (a64_epilogue_at(w->pc, b->frame_bytes, &delta)) {
    case A64_EPILOGUE_AT_LDP:
        return safe_read_word(w->sp, &saved_fp) && step_to_guessed(w, w->sp + WORD, saved_fp);
    case A64_EPILOGUE_RESTORED:
        return step_to_held_return(w, w->lr, w->sp + delta);
    default:
        break;
    }
    if (sized) {
        uintptr_t sender_sp = w->usp + b->frame_bytes;
        return safe_read_word(sender_sp - 2 * WORD, &saved_fp) && step_to(w, sender_sp - WORD, saved_fp);
    }
    bool lr_inside = w->lr >= b->code_begin && w->lr < b->code_end;
    if (w->fp >= w->sp && w->fp - w->sp < 4096 && safe_read_word(w->fp + WORD, &ret) &&
        (arch_code_address(ret) == w->lr || lr_inside) &&
        step_fp_frame(w, false))
        return true;
    return !lr_inside && step_to_held_return(w, w->lr, w->sp);
}

/* aarch64: a leaf in the interpreter whose x29 is no frame of its own (below sp): the method entry before
 * generate_fixed_frame's `stp x29, x30` (the caller in lr, the caller's sp in x19, r19_sender_sp) or the
 * return after `leave`. */
static bool step_a64_interpreter_unbuilt(walk_state *w) {
    uintptr_t sender_sp = w->r13;
    return step_to_held_return(w, w->lr, sender_sp >= w->sp && sender_sp - w->sp < MAX_FRAME_BYTES ? sender_sp : w->sp);
}

/* features=comptask: the method a compiler thread compiles, as a compiled frame above its compile_method
 * frame (nothing when it is between tasks or the method has no jmethodID). False when the stack is full. */
static bool emit_compile_task(walk_state *w) {
    named_method m;
    uintptr_t method = compile_task_method(w->tid);
    return !method || !name_method(method, &m) || emit(w, (trace_frame){m.id, 0, FRAME_JAVA_JIT});
}

/* One frame inside the code cache. False ends the walk (r->failure says whether that is a failure). */
static bool step_code_frame(walk_state *w) {
    if (w->pc == codeblob_call_stub_return()) {
        /* An entry frame: emits nothing of its own, its rbp leads to JavaCalls::call_helper. */
        return step_fp_frame(w, false) || fail(w, VMWALK_BAD_FRAME);
    }
    codeblob b;
    pc_cache_identity id;
    pc_cache_value cached;
    bool read = false, known = self_naming(w) && identify(w, &id, &read);
    bool hit = known && pc_cache_get(w->pc, &id, &cached);
    if (hit) b = cached.blob;
    else if (!codeblob_find(w->pc, &b)) return fail(w, VMWALK_NO_BLOB);
    if (known && read) remember_nmethod(w, &b, &id);
    if (b.kind == BLOB_INTERPRETER) {
        uintptr_t method, bcp = 0;
        /* The Method* slot is written once sp is at or below it. */
        uintptr_t method_at = w->fp + (uintptr_t)(intptr_t)codeblob_interp_method_slot() * WORD;
        if (ARCH_HOTSPOT_X86_CODE && w->leaf && w->fp >= w->sp && w->sp > method_at)
            return step_interpreter_building(w) || fail(w, VMWALK_BAD_FRAME);
        if (!safe_read_word(w->fp + (uintptr_t)(intptr_t)codeblob_interp_method_slot() * WORD, &method) ||
            w->fp < w->sp)
            return (!ARCH_HOTSPOT_X86_CODE ? w->leaf && step_a64_interpreter_unbuilt(w)
                    : w->leaf              ? step_interpreter_unbuilt(w)
                                           : step_interpreter_exception_call(w)) ||
                   fail(w, VMWALK_BAD_FRAME);
        if (layout.interp_bcp_slot) safe_read_word(w->fp + (uintptr_t)(intptr_t)layout.interp_bcp_slot * WORD, &bcp);
        if (!(self_naming(w) ? emit_interpreted(w, method, bcp) : emit_java(w, method, FRAME_JAVA_INTERPRETED)))
            return false;
        return step_fp_frame(w, true) || fail(w, VMWALK_BAD_FRAME);
    }
    if (b.deopt)
        return (w->leaf ? emit(w, (trace_frame){w->pc, 0, FRAME_NATIVE}) && step_deopt_blob_leaf(w, &b)
                        : step_out_of_deopt_blob(w) || step_over_unpacking(w, &b)) ||
               fail(w, VMWALK_DEOPT);
    /* A frame returning into the continuation stubs at no call site: the return barrier a virtual thread's
     * lowest thawed frame returns to. The frames below it are frozen in the continuation's stack chunk, on
     * the heap: the stack ends here, marked (not a failure). */
    if (b.kind == BLOB_STUB && !w->leaf && stub_frames_kind(&b) == STUB_CONTINUATION && !after_call(w->pc)) {
        w->r->frozen = true;
        return false;
    }
    /* C2's uncommon trap blob calls Deoptimization::uncommon_trap from a frame of its size (stepped as any
     * stub's below), then unpack_frames from an rbp frame above the frames it unpacks into. */
    if (b.kind == BLOB_STUB && !w->leaf && stub_frames_kind(&b) == STUB_UNCOMMON_TRAP) {
        walk_state frames;
        if (unpacking_frame(w, &b, &frames)) return step_over_unpacking(w, &b) || fail(w, VMWALK_DEOPT);
    }
    /* A sample inside a stub (vtable/itable stubs, arraycopy and other StubRoutines, runtime stubs): the
     * stub is a frame of its own, named at dump time from its code blob, above its Java callers. */
    if (b.kind == BLOB_STUB && w->leaf && w->receiver && stub_frames_kind(&b) == STUB_VTABLE) {
        /* features=vtable: the receiver's class, above the stub, as async-profiler places it. */
        uintptr_t symbol = receiver_class_symbol(w->receiver);
        if (symbol && !emit(w, (trace_frame){symbol, 0, FRAME_RECEIVER_CLASS})) return false;
    }
    if (b.kind == BLOB_STUB && w->leaf && !emit(w, (trace_frame){w->pc, 0, FRAME_NATIVE})) return false;
    int stub_step = ARCH_HOTSPOT_X86_CODE && b.kind == BLOB_STUB && w->leaf ? step_known_stub(w, &b) : 0;
    if (stub_step) return stub_step > 0 || fail(w, VMWALK_BAD_FRAME);
    /* A leaf in a static call stub is no frame of the nmethod holding it: its caller (the same nmethod,
     * usually) called it. Never cached, so a hit is no such stub. */
    if (ARCH_HOTSPOT_X86_CODE && w->leaf && !hit && b.kind == BLOB_NMETHOD && transit_static_call_stub(&b, w->pc))
        return step_to_guessed(w, w->sp, w->fp) || fail(w, VMWALK_BAD_FRAME);
    if (b.kind == BLOB_NMETHOD && !(hit               ? emit_cached(w, &cached)
                                    : self_naming(w) ? emit_compiled(w, &b, known ? &id : NULL)
                                                     : emit_java(w, b.method, compiled_kind(nmethod_scopes_tier(b.blob)))))
        return false;
    if (!ARCH_HOTSPOT_X86_CODE && w->leaf) return step_a64_leaf(w, &b) || fail(w, VMWALK_BAD_FRAME);
    bool built = b.frame_bytes >= 2 * WORD && b.frame_complete && w->pc >= b.frame_complete;
    uintptr_t ret_offset;
    if (w->leaf && !built && b.kind == BLOB_NMETHOD && stub_frames_prologue_unsaved_rbp(w->pc, &ret_offset))
        return step_to_guessed(w, w->sp + ret_offset, w->fp) || fail(w, VMWALK_BAD_FRAME);
    if (w->leaf && !built) return step_unbuilt_leaf(w, b.frame_bytes) || fail(w, VMWALK_BAD_FRAME);
    if (w->leaf && b.kind == BLOB_NMETHOD) {
        /* C1 code calls slow_subtype_check with two arguments pushed and pops them after the call. */
        w->usp += stub_frames_subtype_args_pushed(w->pc) * WORD;
        epilogue_state e = epilogue_at(w->pc);
        uintptr_t saved;
        if (e == EPILOGUE_AT_POP)
            return (safe_read_word(w->sp, &saved) && step_to(w, w->sp + WORD, saved)) || fail(w, VMWALK_BAD_FRAME);
        if (e == EPILOGUE_POPPED) return step_to(w, w->sp, w->fp) || fail(w, VMWALK_BAD_FRAME);
    }
    /* A caller in a stub the blob gives no frame size for (StubRoutines' stubs, such as the nmethod entry
     * barrier's): those that call out build an rbp frame first. */
    if (b.frame_bytes < 2 * WORD)
        return step_fp_frame(w, false) ||
               (ARCH_HOTSPOT_X86_CODE && (step_stub_frame(w) || (b.kind == BLOB_STUB && (step_to_call_site(w, w->sp) ||
                                                                                     step_to_call_site(w, w->sp + WORD))))) ||
               fail(w, VMWALK_BAD_FRAME);
    uintptr_t sender_sp = w->usp + b.frame_bytes, saved_fp;
    if (safe_read_word(sender_sp - 2 * WORD, &saved_fp) && step_to(w, sender_sp - WORD, saved_fp)) return true;
    /* A leaf amid C2's stack-to-stack copy has one word pushed below its frame. */
    if (w->leaf && b.kind == BLOB_NMETHOD && stub_frames_in_spill_copy(w->pc) &&
        safe_read_word(sender_sp + WORD, &saved_fp) && step_to(w, sender_sp + 2 * WORD, saved_fp))
        return true;
    /* A leaf in its epilogue: the frame is already popped. */
    return (w->leaf && step_unbuilt_leaf(w, 0)) || fail(w, VMWALK_BAD_FRAME);
}

int walk_vm(walk_regs regs, const asgct_frame *java, int java_count, bool name_frames, trace_frame *out, int max,
            vmwalk_result *r) {
    walk_state w = {regs.pc, regs.sp, regs.fp, regs.sp, true, name_frames, java, java_count > 0 ? java_count : 0,
                    0, out, max, 0, r, regs.dx, regs.bx, regs.r13, regs.ax, regs.env, regs.lr, regs.receiver, regs.compile_tasks, regs.tid, {.count = 0}};
    *r = (vmwalk_result){VMWALK_OK, -1, false, 0, 0, 0, false, 0, false};
    while (w.pc >= 4096) {
        if (codeheap_contains(w.pc)) {
            if (r->native_prefix < 0) r->native_prefix = w.n;
            if (!step_code_frame(&w)) break;
        } else {
            uintptr_t at = w.leaf ? w.pc : w.pc - 1;
            if (w.compile_tasks && compile_task_entry(at) && !emit_compile_task(&w)) break;
            if (!emit(&w, (trace_frame){at, 0, FRAME_NATIVE})) break;
            if (!(w.leaf ? walk_dwarf_leaf_step(&w.pc, &w.sp, &w.fp, w.lr) : walk_dwarf_step(&w.pc, &w.sp, &w.fp, false))) {
                /* The thread's root ends the walk with a row saying so; no row at all is a loss, counted. */
                const unwind_row *row = native_map_unwind(at);
                r->no_unwind = !row || row->cfa_reg == UNWIND_UNKNOWN;
                break;
            }
            w.usp = w.sp;
        }
        w.leaf = false;
    }
    if (r->native_prefix < 0) r->native_prefix = w.n;
    if (r->failure == VMWALK_OK && !r->truncated && w.next_java < w.java_count) r->failure = VMWALK_FRAMES_LEFT;
    return w.n;
}
