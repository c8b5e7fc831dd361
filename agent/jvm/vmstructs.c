/*
 * vmstructs: every table is an array of records whose layout is itself described by exported offset
 * variables (gHotSpotVMStructEntryTypeNameOffset, ...), terminated by a record with a NULL type name.
 */
#define _GNU_SOURCE
#include "vmstructs.h"

#include "loaded_object.h"

#include <stdio.h>
#include <string.h>

typedef struct {
    const char *base;
    uint64_t stride;
    uint64_t name, field, type_string, is_static, offset, address, size, value;
} table;

static table structs, types, ints, longs;
static bool ready;

/* In the global scope, or in libjvm itself when a native host loaded it RTLD_LOCAL. */
static void *jvm_symbol(const char *name) {
    return loaded_object_symbol("libjvm.so", name);
}

static bool read_u64(const char *symbol, uint64_t *out) {
    uint64_t *p = jvm_symbol(symbol);
    if (!p) return false;
    *out = *p;
    return true;
}

static bool load_table(table *t, const char *array, const char *prefix, const char *const *fields,
                       uint64_t *const *slots) {
    char name[128];
    const char **base = jvm_symbol(array);
    if (!base || !*base) return false;
    t->base = *base;
    snprintf(name, sizeof(name), "%sArrayStride", prefix);
    if (!read_u64(name, &t->stride)) return false;
    for (int i = 0; fields[i]; i++) {
        snprintf(name, sizeof(name), "%s%sOffset", prefix, fields[i]);
        if (!read_u64(name, slots[i])) return false;
    }
    return true;
}

int vmstructs_init(char *err, unsigned long errlen) {
    if (ready) return 0;
    const char *struct_fields[] = {"TypeName", "FieldName", "TypeString", "IsStatic", "Offset", "Address", NULL};
    uint64_t *struct_slots[] = {&structs.name, &structs.field, &structs.type_string, &structs.is_static, &structs.offset,
                                &structs.address};
    const char *type_fields[] = {"TypeName", "Size", NULL};
    uint64_t *type_slots[] = {&types.name, &types.size};
    const char *int_fields[] = {"Name", "Value", NULL};
    uint64_t *int_slots[] = {&ints.name, &ints.value};
    uint64_t *long_slots[] = {&longs.name, &longs.value};
    if (!load_table(&structs, "gHotSpotVMStructs", "gHotSpotVMStructEntry", struct_fields, struct_slots) ||
        !load_table(&types, "gHotSpotVMTypes", "gHotSpotVMTypeEntry", type_fields, type_slots) ||
        !load_table(&ints, "gHotSpotVMIntConstants", "gHotSpotVMIntConstantEntry", int_fields, int_slots) ||
        !load_table(&longs, "gHotSpotVMLongConstants", "gHotSpotVMLongConstantEntry", int_fields, long_slots)) {
        snprintf(err, errlen, "libjvm.so does not export the gHotSpotVM* serviceability tables");
        return -1;
    }
    ready = true;
    return 0;
}

static const char *str_at(const char *record, uint64_t offset) {
    return *(const char *const *)(record + offset);
}

/* The record of table t whose name (and second name, for structs) match; NULL when absent. */
static const char *find(const table *t, const char *name, uint64_t second_offset, const char *second) {
    if (!ready) return NULL;
    for (const char *r = t->base;; r += t->stride) {
        const char *n = str_at(r, t->name);
        if (!n) return NULL;
        if (strcmp(n, name) != 0) continue;
        if (!second) return r;
        const char *s = str_at(r, second_offset);
        if (s && strcmp(s, second) == 0) return r;
    }
}

bool vmstructs_field_offset(const char *type, const char *field, uint64_t *offset) {
    const char *r = find(&structs, type, structs.field, field);
    if (!r || *(const int32_t *)(r + structs.is_static)) return false;
    *offset = *(const uint64_t *)(r + structs.offset);
    return true;
}

bool vmstructs_field(const char *type, const char *field, uint64_t *offset, unsigned *width) {
    const char *r = find(&structs, type, structs.field, field);
    if (!r || *(const int32_t *)(r + structs.is_static)) return false;
    *offset = *(const uint64_t *)(r + structs.offset);
    const char *t = str_at(r, structs.type_string);
    uint64_t size = 0;
    if (!t) return false;
    if (strchr(t, '*') || strcmp(t, "address") == 0) *width = sizeof(void *);
    else if (strcmp(t, "int") == 0 || strcmp(t, "uint32_t") == 0 || strcmp(t, "u4") == 0 || strcmp(t, "jint") == 0) *width = 4;
    else if (strcmp(t, "int16_t") == 0 || strcmp(t, "u2") == 0 || strcmp(t, "uint16_t") == 0) *width = 2;
    else if (strcmp(t, "bool") == 0 || strcmp(t, "u1") == 0) *width = 1;
    else if (vmstructs_type_size(t, &size) && size > 0 && size <= 8 && !(size & (size - 1))) *width = (unsigned)size;
    else *width = 0;  /* an embedded structure (CodeHeap::_memory is a VirtualSpace): offset only */
    return true;
}

bool vmstructs_static_address(const char *type, const char *field, void **address) {
    const char *r = find(&structs, type, structs.field, field);
    if (!r || !*(const int32_t *)(r + structs.is_static)) return false;
    *address = *(void *const *)(r + structs.address);
    return *address != NULL;
}

bool vmstructs_type_size(const char *type, uint64_t *size) {
    const char *r = find(&types, type, 0, NULL);
    if (!r) return false;
    *size = *(const uint64_t *)(r + types.size);
    return true;
}

bool vmstructs_int_constant(const char *name, int64_t *value) {
    const char *r = find(&ints, name, 0, NULL);
    if (!r) return false;
    *value = *(const int32_t *)(r + ints.value);
    return true;
}

bool vmstructs_long_constant(const char *name, int64_t *value) {
    const char *r = find(&longs, name, 0, NULL);
    if (!r) return false;
    *value = *(const int64_t *)(r + longs.value);
    return true;
}
