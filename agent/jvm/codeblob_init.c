/*
 * codeblob_init: the set-up half of codeblob (signal/codeblob.c). Reads the code cache's layout from the
 * VM's structure tables (vmstructs) into codeblob_vm, once the VM has initialised its code cache (VMInit
 * or attach), and registers the code heaps with safe_read. Outside signal handlers; called by jvm.c.
 */
#include "arch.h"
#include "codeblob.h"
#include "codeblob_init.h"

#include "safe_read.h"
#include "vmstructs.h"

#include <stdio.h>

static bool need_field(const char *type, const char *name_, codeblob_field *f, char *err, size_t errlen) {
    if (vmstructs_field(type, name_, &f->offset, &f->width)) return true;
    snprintf(err, errlen, "this JVM does not describe %s::%s", type, name_);
    return false;
}

static bool need_static(const char *type, const char *name_, void **at, char *err, size_t errlen) {
    if (vmstructs_static_address(type, name_, at)) return true;
    snprintf(err, errlen, "this JVM does not describe %s::%s", type, name_);
    return false;
}

static bool need_int(const char *name_, int64_t *v, char *err, size_t errlen) {
    if (vmstructs_int_constant(name_, v)) return true;
    snprintf(err, errlen, "this JVM does not export the constant %s", name_);
    return false;
}

static int init_heaps(char *err, size_t errlen) {
    void *heaps_at;
    codeblob_field len, data, memory, segmap, log2, vs_low, vs_high;
    if (!need_static("CodeCache", "_heaps", &heaps_at, err, errlen) ||
        !need_field("GrowableArrayBase", "_len", &len, err, errlen) ||
        !need_field("GrowableArray<int>", "_data", &data, err, errlen) ||
        !need_field("CodeHeap", "_memory", &memory, err, errlen) ||
        !need_field("CodeHeap", "_segmap", &segmap, err, errlen) ||
        !need_field("CodeHeap", "_log2_segment_size", &log2, err, errlen) ||
        !need_field("VirtualSpace", "_low", &vs_low, err, errlen) ||
        !need_field("VirtualSpace", "_high", &vs_high, err, errlen))
        return -1;
    /* Outside handlers, on VM data the tables just described: plain loads. */
    const char *array = *(const char *const *)heaps_at;
    if (!array) return snprintf(err, errlen, "CodeCache::_heaps is not set up yet"), -1;
    int n = *(const int *)(array + len.offset);
    const char *const *elements = *(const char *const *const *)(array + data.offset);
    if (n <= 0 || n > CODEBLOB_MAX_HEAPS || !elements)
        return snprintf(err, errlen, "CodeCache::_heaps holds %d code heaps (accepted: 1..%d)", n,
                        CODEBLOB_MAX_HEAPS), -1;
    for (int i = 0; i < n; i++) {
        const char *h = elements[i];
        codeblob_heap *out = &codeblob_vm.heaps[i];
        out->low = *(const uintptr_t *)(h + memory.offset + vs_low.offset);
        out->high_at = (const uintptr_t *)(h + memory.offset + vs_high.offset);
        out->segmap_low = *(const uintptr_t *)(h + segmap.offset + vs_low.offset);
        out->segmap_high_at = (const uintptr_t *)(h + segmap.offset + vs_high.offset);
        out->log2_segment = *(const int *)(h + log2.offset);
        if (!out->low || !out->segmap_low || out->log2_segment < 4 || out->log2_segment > 16)
            return snprintf(err, errlen, "code heap %d does not look initialised (segment size 2^%d)", i,
                            out->log2_segment), -1;
    }
    for (int i = 0; i < n; i++) {
        if (safe_read_add_growing_region(codeblob_vm.heaps[i].low, codeblob_vm.heaps[i].high_at) ||
            safe_read_add_growing_region(codeblob_vm.heaps[i].segmap_low, codeblob_vm.heaps[i].segmap_high_at))
            return snprintf(err, errlen, "too many memory regions for safe_read"), -1;
    }
    codeblob_vm.heap_count = n;
    return 0;
}

/* Optional: without these a frame returning into its deoptimisation handler is named without its inlined
 * frames (its nmethod's own method); without the stub section's offset a leaf in a static call stub ends
 * its stack in a marker. */
static void init_deopt_layout(void) {
    codeblob_layout *v = &codeblob_vm;
    v->has_stub_offset = vmstructs_field("nmethod", "_stub_offset", &v->stub_offset.offset, &v->stub_offset.width);
    bool orig = vmstructs_field("nmethod", "_orig_pc_offset", &v->orig_pc_offset.offset, &v->orig_pc_offset.width);
    if (vmstructs_field("nmethod", "_deopt_handler_offset", &v->deopt_handler.offset, &v->deopt_handler.width)) {
        v->deopt_handler_is_offset = true;
    } else if (!vmstructs_field("CompiledMethod", "_deopt_handler_begin", &v->deopt_handler.offset,
                                &v->deopt_handler.width) &&
               !vmstructs_field("nmethod", "_deopt_handler_begin", &v->deopt_handler.offset, &v->deopt_handler.width)) {
        return;
    }
    v->has_deopt_mh_handler =
        vmstructs_field("CompiledMethod", "_deopt_mh_handler_begin", &v->deopt_mh_handler.offset,
                        &v->deopt_mh_handler.width) ||
        vmstructs_field("nmethod", "_deopt_mh_handler_begin", &v->deopt_mh_handler.offset, &v->deopt_mh_handler.width);
    v->has_orig_pc = orig;
}

static int init_blob_layout(char *err, size_t errlen) {
    codeblob_field header_used;
    if (!vmstructs_type_size("HeapBlock", &codeblob_vm.heap_block_size) || codeblob_vm.heap_block_size == 0)
        return snprintf(err, errlen, "this JVM does not describe the type HeapBlock"), -1;
    if (!need_field("HeapBlock::Header", "_used", &header_used, err, errlen) ||
        !need_field("CodeBlob", "_size", &codeblob_vm.blob_size, err, errlen) ||
        !need_field("CodeBlob", "_frame_complete_offset", &codeblob_vm.frame_complete, err, errlen) ||
        !need_field("CodeBlob", "_frame_size", &codeblob_vm.frame_size, err, errlen))
        return -1;
    codeblob_vm.used_at = header_used.offset;
    codeblob_vm.used_width = header_used.width;
    /* JDK 17 keeps code bounds as pointers; later JDKs as offsets from the blob. */
    codeblob_vm.has_code_pointers =
        vmstructs_field("CodeBlob", "_code_begin", &codeblob_vm.code_begin.offset, &codeblob_vm.code_begin.width);
    if (codeblob_vm.has_code_pointers) {
        if (!need_field("CodeBlob", "_code_end", &codeblob_vm.code_end, err, errlen)) return -1;
    } else if (!need_field("CodeBlob", "_code_offset", &codeblob_vm.code_offset, err, errlen) ||
               !need_field("CodeBlob", "_data_offset", &codeblob_vm.data_offset, err, errlen)) {
        return -1;
    }
    /* The name also names the stubs samples land in (codeblob_name_at); a kind field makes it optional. */
    codeblob_vm.has_name = vmstructs_field("CodeBlob", "_name", &codeblob_vm.name.offset, &codeblob_vm.name.width) &&
                           codeblob_vm.name.width == sizeof(void *);
    codeblob_vm.has_kind = vmstructs_field("CodeBlob", "_kind", &codeblob_vm.kind.offset, &codeblob_vm.kind.width);
    if (codeblob_vm.has_kind) {
        if (!need_int("CodeBlobKind::Nmethod", &codeblob_vm.kind_nmethod, err, errlen)) return -1;
        if (!vmstructs_int_constant("CodeBlobKind::Deoptimization", &codeblob_vm.kind_deopt))
            codeblob_vm.kind_deopt = -1;
    } else if (!need_field("CodeBlob", "_name", &codeblob_vm.name, err, errlen)) {
        return -1;
    }
    if (!vmstructs_field("nmethod", "_method", &codeblob_vm.method.offset, &codeblob_vm.method.width) &&
        !need_field("CompiledMethod", "_method", &codeblob_vm.method, err, errlen))
        return -1;
    init_deopt_layout();
    return 0;
}

static int init_entry_points(char *err, size_t errlen) {
    void *at;
    codeblob_field stub_buffer, buffer_limit;
    int64_t last_sp, sender_sp;
    if (!need_static("StubRoutines", "_call_stub_return_address", &at, err, errlen)) return -1;
    codeblob_vm.call_stub_return = *(const uintptr_t *)at;
    if (!need_static("AbstractInterpreter", "_code", &at, err, errlen) ||
        !need_field("StubQueue", "_stub_buffer", &stub_buffer, err, errlen) ||
        !need_field("StubQueue", "_buffer_limit", &buffer_limit, err, errlen))
        return -1;
    const char *queue = *(const char *const *)at;
    if (!queue || !codeblob_vm.call_stub_return)
        return snprintf(err, errlen, "the interpreter is not generated yet"), -1;
    codeblob_vm.interp_low = *(const uintptr_t *)(queue + stub_buffer.offset);
    codeblob_vm.interp_high = codeblob_vm.interp_low + (uintptr_t)*(const int *)(queue + buffer_limit.offset);
    /* The slot of the Method* in an interpreted frame is not exported; the frame layout puts it right
     * below the last-sp slot (arch.h), and the walker checks every Method* it reads from there against
     * AsyncGetCallTrace's frames. */
    if (!ARCH_HOTSPOT_INTERP_SLOTS_EXPORTED && !vmstructs_int_constant("frame::interpreter_frame_last_sp_offset", &last_sp)) {
        last_sp = ARCH_HOTSPOT_INTERP_METHOD_SLOT + 1;
        sender_sp = ARCH_HOTSPOT_INTERP_SENDER_SP_SLOT;
    } else if (!need_int("frame::interpreter_frame_last_sp_offset", &last_sp, err, errlen) ||
               !need_int("frame::interpreter_frame_sender_sp_offset", &sender_sp, err, errlen)) {
        return -1;
    }
    codeblob_vm.interp_method_slot = (int)last_sp - 1;
    codeblob_vm.interp_sender_sp_slot = (int)sender_sp;
    if (codeblob_vm.interp_method_slot != ARCH_HOTSPOT_INTERP_METHOD_SLOT ||
        codeblob_vm.interp_sender_sp_slot != ARCH_HOTSPOT_INTERP_SENDER_SP_SLOT)
        return snprintf(err, errlen, "unexpected interpreter frame layout (method slot %d, sender sp slot %d)",
                        codeblob_vm.interp_method_slot, codeblob_vm.interp_sender_sp_slot), -1;
    return 0;
}

int codeblob_init(char *err, size_t errlen) {
    if (codeblob_vm.ready) return 0;
    codeblob_vm.kind_deopt = -1;
    if (vmstructs_init(err, errlen) || init_blob_layout(err, errlen) || init_entry_points(err, errlen) ||
        init_heaps(err, errlen))
        return -1;
    codeblob_vm.ready = true;
    return 0;
}

