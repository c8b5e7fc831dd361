/*
 * nmethod_scopes_init: the set-up half of nmethod_scopes (signal/nmethod_scopes.c), outside signal
 * handlers. Finds in the VM's structure tables where an nmethod keeps its pcs, scopes data and metadata:
 *  - JDK 17 to 22: pcs from nmethod::_scopes_pcs_offset to _dependencies_offset and metadata at
 *    _metadata_offset, all from the nmethod; the scopes data at CompiledMethod::_scopes_data_begin;
 *  - JDK 25: pcs from _scopes_pcs_offset to _scopes_data_offset, scopes data at _scopes_data_offset, all
 *    from nmethod::_immutable_data; metadata after the relocations in CodeBlob::_mutable_data.
 * A JVM matching neither shape is refused with the first entry missing, and the walker leaves compiled
 * frames to AsyncGetCallTrace.
 */
#include "nmethod_scopes_init.h"

#include "vmstructs.h"

#include <stdio.h>

static bool has(const char *type, const char *name, nmethod_field *f) {
    return vmstructs_field(type, name, &f->offset, &f->width) && f->width > 0;
}

static bool need(const char *type, const char *name, nmethod_field *f, char *err, size_t errlen) {
    if (has(type, name, f)) return true;
    snprintf(err, errlen, "this JVM does not describe %s::%s", type, name);
    return false;
}

int nmethod_scopes_init(char *err, size_t errlen) {
    nmethod_scopes_layout l = {0};
    uint64_t size;
    nmethod_field pc, scope;
    if (nmethod_scopes_vm.ready) return 0;
    if (!need("nmethod", "_scopes_pcs_offset", &l.pcs_offset, err, errlen) ||
        !need("nmethod", "_comp_level", &l.comp_level, err, errlen) ||
        !need("PcDesc", "_pc_offset", &pc, err, errlen) || !need("PcDesc", "_scope_decode_offset", &scope, err, errlen))
        return -1;
    if (!vmstructs_type_size("PcDesc", &size) || size < 8 || pc.width != 4 || scope.width != 4)
        return snprintf(err, errlen, "this JVM's PcDesc is not the expected 4-byte offsets"), -1;
    /* Optional: without it the walker caches no pc (signal/pc_cache.c). */
    if (!has("nmethod", "_compile_id", &l.compile_id) && !has("CompiledMethod", "_compile_id", &l.compile_id))
        l.compile_id.width = 0;
    l.pc_desc_size = size;
    l.pc_desc_pc = pc.offset;
    l.pc_desc_scope = scope.offset;
    l.immutable_data = has("nmethod", "_immutable_data", &l.immutable);
    if (l.immutable_data) {
        if (!need("nmethod", "_scopes_data_offset", &l.scopes_data, err, errlen)) return -1;
        l.pcs_end_offset = l.scopes_data;
    } else {
        if (!need("nmethod", "_dependencies_offset", &l.pcs_end_offset, err, errlen)) return -1;
        l.scopes_data_pointer = has("CompiledMethod", "_scopes_data_begin", &l.scopes_data) ||
                                has("nmethod", "_scopes_data_begin", &l.scopes_data);
        if (!l.scopes_data_pointer && !need("nmethod", "_scopes_data_offset", &l.scopes_data, err, errlen))
            return -1;
    }
    if (!has("nmethod", "_metadata_offset", &l.metadata_offset)) {
        if (!need("CodeBlob", "_mutable_data", &l.mutable_data, err, errlen) ||
            !need("CodeBlob", "_relocation_size", &l.relocation_size, err, errlen))
            return -1;
        l.metadata_in_mutable = true;
    } else if (l.immutable_data) {
        /* JDK 23 and 24 count _metadata_offset from elsewhere; not followed rather than guessed. */
        return snprintf(err, errlen, "this JVM's nmethod metadata layout (JDK 23/24) is not supported"), -1;
    }
    void *major_at;
    if (!vmstructs_static_address("Abstract_VM_Version", "_vm_major_version", &major_at))
        return snprintf(err, errlen, "this JVM does not describe Abstract_VM_Version::_vm_major_version"), -1;
    int major = *(const int *)major_at;
    if (major < 11) return snprintf(err, errlen, "JDK %d is older than the walker supports (11)", major), -1;
    l.unsigned5_excluded = major >= 20 ? 1 : 0;   /* JDK-8292758 moved CompressedStream to UNSIGNED5 */
    l.ready = true;
    nmethod_scopes_vm = l;
    return 0;
}
