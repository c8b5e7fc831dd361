/*
 * receiver_class_init: reads what signal/receiver_class needs from the live VM (receiver_class.h): the
 * offsets from the structure tables, and the flags UseCompressedClassPointers and UseCompactObjectHeaders
 * from HotSpot's flag table (JVMFlag::flags, numFlags entries of sizeof(JVMFlag), each with _name and _addr).
 */
#include "receiver_class_init.h"

#include "receiver_class.h"
#include "vmstructs.h"

#include <stdio.h>
#include <string.h>

/* The value of a bool flag; false when the JVM does not list it. */
static bool bool_flag(const char *name, bool *value) {
    void *flags_at, *count_at;
    uint64_t size, name_offset, addr_offset;
    if (!vmstructs_static_address("JVMFlag", "flags", &flags_at) ||
        !vmstructs_static_address("JVMFlag", "numFlags", &count_at) || !vmstructs_type_size("JVMFlag", &size) ||
        !vmstructs_field_offset("JVMFlag", "_name", &name_offset) ||
        !vmstructs_field_offset("JVMFlag", "_addr", &addr_offset) || !flags_at || !count_at || !size)
        return false;
    const char *flags = *(const char *const *)flags_at;
    size_t count = *(const size_t *)count_at;
    for (size_t i = 0; flags && i < count; i++) {
        const char *flag = flags + i * size;
        const char *flag_name = *(const char *const *)(flag + name_offset);
        const bool *addr = *(const bool *const *)(flag + addr_offset);
        if (flag_name && addr && strcmp(flag_name, name) == 0) {
            *value = *addr;
            return true;
        }
    }
    return false;
}

bool receiver_class_init(char *err, size_t errlen) {
    receiver_class_layout l = {0};
    bool compact = false;
    void *base_at, *shift_at;
    if (bool_flag("UseCompactObjectHeaders", &compact) && compact) {
        snprintf(err, errlen, "objects have compact headers (UseCompactObjectHeaders): their class is not read");
        return false;
    }
    if (!bool_flag("UseCompressedClassPointers", &l.compressed)) {
        snprintf(err, errlen, "the JVM does not list UseCompressedClassPointers");
        return false;
    }
    bool base_known = vmstructs_static_address("CompressedKlassPointers", "_base", &base_at) ||
                      vmstructs_static_address("CompressedKlassPointers", "_narrow_klass._base", &base_at);
    bool shift_known = vmstructs_static_address("CompressedKlassPointers", "_shift", &shift_at) ||
                       vmstructs_static_address("CompressedKlassPointers", "_narrow_klass._shift", &shift_at);
    if (l.compressed) {
        if (!base_known || !shift_known || !base_at || !shift_at ||
            !vmstructs_field_offset("oopDesc", "_metadata._compressed_klass", &l.klass_offset)) {
            snprintf(err, errlen, "the JVM does not describe its compressed class pointers");
            return false;
        }
        l.narrow_base = *(const uintptr_t *)base_at;
        l.narrow_shift = *(const int *)shift_at;
    } else if (!vmstructs_field_offset("oopDesc", "_metadata._klass", &l.klass_offset)) {
        snprintf(err, errlen, "the JVM does not describe an object's klass field");
        return false;
    }
    if (!vmstructs_field_offset("Klass", "_name", &l.klass_name) ||
        !vmstructs_field_offset("Symbol", "_length", &l.symbol_length) ||
        !(vmstructs_field_offset("Symbol", "_body", &l.symbol_body) ||
          vmstructs_field_offset("Symbol", "_body[0]", &l.symbol_body))) {
        snprintf(err, errlen, "the JVM does not describe class name symbols");
        return false;
    }
    receiver_class_set_layout(&l);
    return true;
}
