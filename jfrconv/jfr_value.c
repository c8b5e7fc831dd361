/*
 * jfr_value: see jfr_value.h. Inline structs nest at most MAX_NESTING deep (a type that contains itself
 * inline would otherwise recurse forever without reading a byte); pool references are followed at most
 * MAX_HOPS times per text (a pool entry may refer to another pool, even to itself).
 */
#include "jfr_value.h"

#include <string.h>

#define MAX_NESTING 64
#define MAX_HOPS 8

static bool spend(jfr_rchunk *ch, jfr_cursor *c) {
    if (ch->budget > 0) {
        ch->budget--;
        return true;
    }
    jfr_cursor_fail(c, c->pos, "decoding needs more steps than a chunk of this size can justify (corrupt nesting)");
    return false;
}

static int skip_type(jfr_rchunk *ch, jfr_cursor *c, uint32_t t, int depth, const char *what);

static int skip_one(jfr_rchunk *ch, jfr_cursor *c, const jfr_field *f, int depth) {
    if (f->pooled) {
        jfr_cursor_varint(c, "constant-pool key");
        return jfr_cursor_ok(c) ? 0 : -1;
    }
    return skip_type(ch, c, f->type, depth + 1, f->name);
}

static int skip_field(jfr_rchunk *ch, jfr_cursor *c, const jfr_field *f, int depth) {
    if (!f->array) return skip_one(ch, c, f, depth);
    uint64_t n = jfr_cursor_count(c, f->name);
    for (uint64_t i = 0; i < n && jfr_cursor_ok(c); i++) {
        if (!spend(ch, c)) return -1;
        skip_one(ch, c, f, depth);
    }
    return jfr_cursor_ok(c) ? 0 : -1;
}

/* 'what' names the field being read (the type's name at the top), for error messages. */
static int skip_type(jfr_rchunk *ch, jfr_cursor *c, uint32_t t, int depth, const char *what) {
    if (!spend(ch, c)) return -1;
    const jfr_type *type = &ch->meta.types[t];
    switch (type->kind) {
    case JFR_KIND_U8: return jfr_cursor_skip(c, 1, type->name);
    case JFR_KIND_F32: return jfr_cursor_skip(c, 4, type->name);
    case JFR_KIND_F64: return jfr_cursor_skip(c, 8, type->name);
    case JFR_KIND_VARINT:
        jfr_cursor_varint_sized(c, type->bits, what);
        return jfr_cursor_ok(c) ? 0 : -1;
    case JFR_KIND_STRING: {
        uint64_t key;
        char none[1];
        return jfr_cursor_string(c, none, sizeof(none), &key, "string") < 0 ? -1 : 0;
    }
    case JFR_KIND_STRUCT:
        break;
    }
    if (depth > MAX_NESTING)
        return jfr_cursor_fail(c, c->pos, "values of type '%s' nest deeper than %d (a type containing itself?)",
                        type->name, MAX_NESTING);
    for (uint32_t f = 0; f < type->field_count && jfr_cursor_ok(c); f++) skip_field(ch, c, &type->fields[f], depth);
    return jfr_cursor_ok(c) ? 0 : -1;
}

int jfr_value_skip_field(jfr_rchunk *ch, jfr_cursor *c, const jfr_field *f) {
    return skip_field(ch, c, f, 0);
}

int jfr_value_skip_type(jfr_rchunk *ch, jfr_cursor *c, uint32_t t) {
    return skip_type(ch, c, t, 0, ch->meta.types[t].name);
}

int jfr_value_fields(jfr_rchunk *ch, size_t at, uint32_t t, size_t *offsets, uint32_t n) {
    memset(offsets, 0, n * sizeof(size_t));
    if (!at || t == JFR_NO_TYPE) return 0;
    const jfr_type *type = &ch->meta.types[t];
    jfr_cursor c = jfr_rchunk_cursor(ch, at);
    for (uint32_t f = 0; f < n && f < type->field_count; f++) {
        offsets[f] = c.pos;
        if (f + 1 < n && f + 1 < type->field_count && skip_field(ch, &c, &type->fields[f], 0)) return -1;
    }
    return jfr_cursor_ok(&c) ? 0 : -1;
}

static size_t pool_lookup(jfr_rchunk *ch, uint32_t t, uint64_t key) {
    uint64_t at;
    if (key == UINT64_MAX || !u64map_get(&ch->meta.types[t].pool, key + 1, &at)) return 0;
    return (size_t)(at - 1);
}

size_t jfr_value_deref(jfr_rchunk *ch, size_t at, const jfr_field *f) {
    if (!at || !f || !f->pooled) return at;
    jfr_cursor c = jfr_rchunk_cursor(ch, at);
    uint64_t key = jfr_cursor_varint(&c, "constant-pool key");
    return jfr_cursor_ok(&c) ? pool_lookup(ch, f->type, key) : 0;
}

uint64_t jfr_value_number(jfr_rchunk *ch, size_t at, const jfr_field *f) {
    if (!at) return 0;
    jfr_cursor c = jfr_rchunk_cursor(ch, at);
    if (f->pooled) return jfr_cursor_varint(&c, f->name);
    switch (ch->meta.types[f->type].kind) {
    case JFR_KIND_U8: return jfr_cursor_u8(&c, f->name);
    case JFR_KIND_VARINT: return jfr_cursor_varint_sized(&c, ch->meta.types[f->type].bits, f->name);
    case JFR_KIND_F32: return jfr_cursor_be(&c, 4, f->name);
    case JFR_KIND_F64: return jfr_cursor_be(&c, 8, f->name);
    default: return 0;
    }
}

int jfr_value_text(jfr_rchunk *ch, size_t at, const jfr_field *f, char *out, size_t outlen) {
    out[0] = 0;
    uint32_t t = f->type;
    at = jfr_value_deref(ch, at, f);
    for (int hop = 0; at && !f->array && hop < MAX_HOPS; hop++) {
        const jfr_type *type = &ch->meta.types[t];
        jfr_cursor c = jfr_rchunk_cursor(ch, at);
        if (type->kind == JFR_KIND_STRING) {
            uint64_t key = 0;
            int tag = jfr_cursor_string(&c, out, outlen, &key, f->name);
            if (tag != JFR_STR_POOL) return tag < 0 ? -1 : 0;
            at = ch->string_type == JFR_NO_TYPE ? 0 : pool_lookup(ch, ch->string_type, key);
            t = ch->string_type;
            continue;
        }
        if (type->kind != JFR_KIND_STRUCT || type->field_count == 0) return 0;
        f = &type->fields[0];  /* a simple type: its text is its first field */
        t = f->type;
        at = jfr_value_deref(ch, at, f);
    }
    return ch->error->failed ? -1 : 0;
}
