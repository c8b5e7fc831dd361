/*
 * jfr_meta: the types a JFR chunk declares in its metadata event (type id 0): classes with their fields
 * in order, which is all a reader needs to decode any event or constant pool generically. Annotations and
 * settings are read past, not kept. Called by jfr_rchunk when it opens a chunk; read by jfr_value.
 */
#ifndef LIBPROF_JFR_META_H
#define LIBPROF_JFR_META_H

#include "jfr_cursor.h"
#include "u64map.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* How a value of a type is encoded. */
typedef enum {
    JFR_KIND_STRUCT = 0,  /* its fields in order */
    JFR_KIND_U8,          /* byte, boolean: one raw byte */
    JFR_KIND_VARINT,      /* char, short, int, long */
    JFR_KIND_F32,         /* float: 4 raw bytes */
    JFR_KIND_F64,         /* double: 8 raw bytes */
    JFR_KIND_STRING,      /* java.lang.String: a tagged string */
} jfr_kind;

typedef struct {
    char *name;
    uint64_t type_id;
    uint32_t type;        /* index into jfr_meta.types, resolved after parsing */
    bool pooled;          /* constantPool="true": a varint key into the type's pool */
    bool array;           /* dimension="1": a varint count, then the elements */
} jfr_field;

typedef struct {
    uint64_t id;
    char *name;
    char *super_type;     /* NULL when none */
    jfr_kind kind;
    uint8_t bits;         /* JFR_KIND_VARINT: the declared width (16 char/short, 32 int, 64 long) */
    jfr_field *fields;
    uint32_t field_count;
    size_t field_capacity;
    u64map pool;          /* constant pool: key + 1 -> file offset of the value + 1 (filled by jfr_rchunk) */
} jfr_type;

typedef struct {
    jfr_type *types;
    uint32_t type_count;
    size_t type_capacity;
    u64map by_id;         /* type id + 1 -> index + 1 */
} jfr_meta;

#define JFR_NO_TYPE UINT32_MAX

/* Parses the metadata event whose first byte is at c->pos (c->end = the chunk's end). -1 with the
 * cursor's error set. On success and failure alike, jfr_meta_free releases what was built. */
int jfr_meta_parse(jfr_meta *m, jfr_cursor *c);
void jfr_meta_free(jfr_meta *m);

uint32_t jfr_meta_find_id(const jfr_meta *m, uint64_t id);
uint32_t jfr_meta_find_name(const jfr_meta *m, const char *name);
/* Index of the field called 'name' in type 't', or -1. */
int jfr_meta_field(const jfr_meta *m, uint32_t t, const char *name);

#endif
