/*
 * jfr_meta: parses the metadata event: a string table, then a tree of elements (name, attributes,
 * children) whose "class" and "field" elements declare the types. The tree is walked once, recursively
 * with a depth limit; every count is checked against the bytes left, so corrupt input cannot drive
 * unbounded loops or allocations.
 */
#define _GNU_SOURCE
#include "jfr_meta.h"

#include "array_grow.h"

#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 32
#define MAX_NAME 512

typedef struct {
    jfr_meta *meta;
    jfr_cursor *c;
    char **strings;
    uint64_t string_count;
} meta_parser;

static const char *string_at(meta_parser *p, size_t at, uint64_t index, const char *what) {
    if (index < p->string_count) return p->strings[index];
    jfr_cursor_fail(p->c, at, "metadata %s: string index %llu out of range (table has %llu)", what,
             (unsigned long long)index, (unsigned long long)p->string_count);
    return NULL;
}

static int parse_number(meta_parser *p, size_t at, const char *text, const char *what, uint64_t *out) {
    char *end;
    *out = 0;   /* set on every path: callers read it only on success, but -O3 cannot tell */
    if (!text[0] || text[0] < '0' || text[0] > '9') return jfr_cursor_fail(p->c, at, "metadata %s '%s' is not a number", what, text);
    *out = strtoull(text, &end, 10);
    if (*end) return jfr_cursor_fail(p->c, at, "metadata %s '%s' is not a number", what, text);
    return 0;
}

static jfr_kind kind_of(const char *name, uint8_t *bits) {
    static const struct { const char *name; jfr_kind kind; uint8_t bits; } primitives[] = {
        {"boolean", JFR_KIND_U8, 8}, {"byte", JFR_KIND_U8, 8}, {"char", JFR_KIND_VARINT, 16},
        {"short", JFR_KIND_VARINT, 16}, {"int", JFR_KIND_VARINT, 32}, {"long", JFR_KIND_VARINT, 64},
        {"float", JFR_KIND_F32, 32}, {"double", JFR_KIND_F64, 64}, {"java.lang.String", JFR_KIND_STRING, 0},
    };
    for (size_t i = 0; i < sizeof(primitives) / sizeof(primitives[0]); i++) {
        if (strcmp(name, primitives[i].name) == 0) {
            *bits = primitives[i].bits;
            return primitives[i].kind;
        }
    }
    *bits = 0;
    return JFR_KIND_STRUCT;
}

/* The attributes of one element, the ones we use picked out by key. */
typedef struct {
    const char *name, *id, *super_type, *cls, *constant_pool, *dimension;
} attrs;

static int read_attrs(meta_parser *p, attrs *a) {
    memset(a, 0, sizeof(*a));
    uint64_t n = jfr_cursor_count(p->c, "metadata attribute count");
    for (uint64_t i = 0; i < n && jfr_cursor_ok(p->c); i++) {
        size_t at = p->c->pos;
        const char *key = string_at(p, at, jfr_cursor_varint(p->c, "metadata attribute key"), "attribute key");
        at = p->c->pos;
        const char *value = string_at(p, at, jfr_cursor_varint(p->c, "metadata attribute value"), "attribute value");
        if (!key || !value) return -1;
        if (strcmp(key, "name") == 0) a->name = value;
        else if (strcmp(key, "id") == 0) a->id = value;
        else if (strcmp(key, "superType") == 0) a->super_type = value;
        else if (strcmp(key, "class") == 0) a->cls = value;
        else if (strcmp(key, "constantPool") == 0) a->constant_pool = value;
        else if (strcmp(key, "dimension") == 0) a->dimension = value;
    }
    return jfr_cursor_ok(p->c) ? 0 : -1;
}

static int add_class(meta_parser *p, size_t at, const attrs *a, uint32_t *index) {
    jfr_meta *m = p->meta;
    uint64_t id;
    if (!a->name || !a->id) return jfr_cursor_fail(p->c, at, "metadata class without a name or an id");
    if (parse_number(p, at, a->id, "class id", &id)) return -1;
    if (id == UINT64_MAX) return jfr_cursor_fail(p->c, at, "metadata class '%s' has an invalid id", a->name);
    if (jfr_meta_find_id(m, id) != JFR_NO_TYPE)
        return jfr_cursor_fail(p->c, at, "metadata declares type id %llu twice ('%s')", (unsigned long long)id, a->name);
    if (array_grow((void **)&m->types, sizeof(jfr_type), (size_t)m->type_count + 1, &m->type_capacity))
        return jfr_cursor_fail(p->c, at, "out of memory reading the metadata");
    jfr_type *t = &m->types[m->type_count];
    memset(t, 0, sizeof(*t));
    u64map_init(&t->pool);
    t->id = id;
    t->name = strdup(a->name);
    t->super_type = a->super_type ? strdup(a->super_type) : NULL;
    t->kind = kind_of(a->name, &t->bits);
    *index = m->type_count++;
    if (!t->name || (a->super_type && !t->super_type) || u64map_put(&m->by_id, id + 1, (uint64_t)*index + 1))
        return jfr_cursor_fail(p->c, at, "out of memory reading the metadata");
    return 0;
}

static int add_field(meta_parser *p, size_t at, uint32_t owner, const attrs *a) {
    jfr_type *t = &p->meta->types[owner];
    uint64_t type_id, dimension = 0;
    if (!a->name || !a->cls) return jfr_cursor_fail(p->c, at, "metadata field of '%s' without a name or a class", t->name);
    if (parse_number(p, at, a->cls, "field class", &type_id)) return -1;
    if (a->dimension && parse_number(p, at, a->dimension, "field dimension", &dimension)) return -1;
    if (dimension > 1)
        return jfr_cursor_fail(p->c, at, "field '%s.%s' has dimension %llu (only 0 and 1 exist)", t->name, a->name,
                        (unsigned long long)dimension);
    if (array_grow((void **)&t->fields, sizeof(jfr_field), (size_t)t->field_count + 1, &t->field_capacity))
        return jfr_cursor_fail(p->c, at, "out of memory reading the metadata");
    jfr_field *f = &t->fields[t->field_count++];
    f->name = strdup(a->name);
    f->type_id = type_id;
    f->type = JFR_NO_TYPE;
    f->pooled = a->constant_pool && strcmp(a->constant_pool, "true") == 0;
    f->array = dimension == 1;
    if (!f->name) return jfr_cursor_fail(p->c, at, "out of memory reading the metadata");
    return 0;
}

/* One element and its children. 'owner' is the class being declared (fields belong to it), or
 * JFR_NO_TYPE; 'in_class' stops a field of an annotation inside a class from counting as its field. */
static int parse_element(meta_parser *p, int depth, uint32_t owner, bool in_class) {
    size_t at = p->c->pos;
    if (depth > MAX_DEPTH) return jfr_cursor_fail(p->c, at, "metadata elements nested deeper than %d", MAX_DEPTH);
    const char *name = string_at(p, at, jfr_cursor_varint(p->c, "metadata element name"), "element name");
    attrs a;
    if (!name || read_attrs(p, &a)) return -1;
    uint32_t child_owner = JFR_NO_TYPE;
    bool child_in_class = in_class;
    if (strcmp(name, "class") == 0 && !in_class) {
        if (add_class(p, at, &a, &child_owner)) return -1;
        child_in_class = true;
    } else if (strcmp(name, "field") == 0 && owner != JFR_NO_TYPE) {
        if (add_field(p, at, owner, &a)) return -1;
    } else if (in_class) {
        child_owner = JFR_NO_TYPE;  /* annotation, setting: their children are not the class's fields */
    }
    uint64_t children = jfr_cursor_count(p->c, "metadata child count");
    for (uint64_t i = 0; i < children && jfr_cursor_ok(p->c); i++) {
        if (parse_element(p, depth + 1, child_owner, child_in_class)) return -1;
    }
    return jfr_cursor_ok(p->c) ? 0 : -1;
}

/* Every field's type must be declared: resolve the ids to indexes once. */
static int resolve_fields(meta_parser *p, size_t at) {
    jfr_meta *m = p->meta;
    for (uint32_t t = 0; t < m->type_count; t++) {
        for (uint32_t f = 0; f < m->types[t].field_count; f++) {
            jfr_field *field = &m->types[t].fields[f];
            field->type = jfr_meta_find_id(m, field->type_id);
            if (field->type == JFR_NO_TYPE)
                return jfr_cursor_fail(p->c, at, "metadata: field '%s.%s' has undeclared type id %llu", m->types[t].name,
                                field->name, (unsigned long long)field->type_id);
        }
    }
    return 0;
}

int jfr_meta_parse(jfr_meta *m, jfr_cursor *c) {
    memset(m, 0, sizeof(*m));
    u64map_init(&m->by_id);
    size_t start = c->pos;
    uint64_t size = jfr_cursor_varint(c, "metadata event size");
    if (jfr_cursor_ok(c) && (size < 2 || size > c->end - start))
        return jfr_cursor_fail(c, start, "metadata event size %llu does not fit the chunk (%zu bytes left)",
                        (unsigned long long)size, c->end - start);
    jfr_cursor ev = jfr_cursor_sub(c, c->pos, start + size);
    uint64_t type = jfr_cursor_varint(&ev, "metadata event type");
    if (jfr_cursor_ok(c) && type != 0)
        return jfr_cursor_fail(c, start, "the chunk header's metadata offset points at an event of type %llu, not the "
                        "metadata event (type 0)", (unsigned long long)type);
    for (int i = 0; i < 3; i++) jfr_cursor_varint(&ev, "metadata event header");  /* start, duration, metadata id */
    meta_parser p = {m, &ev, NULL, 0};
    uint64_t n = jfr_cursor_count(&ev, "metadata string count");
    if (jfr_cursor_ok(c) && !(p.strings = calloc(n ? n : 1, sizeof(char *))))
        return jfr_cursor_fail(c, start, "out of memory reading the metadata");
    for (uint64_t i = 0; i < n && jfr_cursor_ok(c); i++) {
        char text[MAX_NAME];
        jfr_cursor_string(&ev, text, sizeof(text), NULL, "metadata string");
        if (jfr_cursor_ok(c) && !(p.strings[i] = strdup(text))) jfr_cursor_fail(c, ev.pos, "out of memory reading the metadata");
        p.string_count = i + 1;
    }
    if (jfr_cursor_ok(c)) parse_element(&p, 0, JFR_NO_TYPE, false);
    if (jfr_cursor_ok(c)) resolve_fields(&p, start);
    for (uint64_t i = 0; i < p.string_count; i++) free(p.strings[i]);
    free(p.strings);
    c->pos = start + size;
    return jfr_cursor_ok(c) ? 0 : -1;
}

void jfr_meta_free(jfr_meta *m) {
    for (uint32_t t = 0; t < m->type_count; t++) {
        jfr_type *type = &m->types[t];
        for (uint32_t f = 0; f < type->field_count; f++) free(type->fields[f].name);
        free(type->fields);
        free(type->name);
        free(type->super_type);
        u64map_free(&type->pool);
    }
    free(m->types);
    u64map_free(&m->by_id);
    memset(m, 0, sizeof(*m));
}

uint32_t jfr_meta_find_id(const jfr_meta *m, uint64_t id) {
    uint64_t v;
    return id != UINT64_MAX && u64map_get(&m->by_id, id + 1, &v) ? (uint32_t)(v - 1) : JFR_NO_TYPE;
}

uint32_t jfr_meta_find_name(const jfr_meta *m, const char *name) {
    for (uint32_t t = 0; t < m->type_count; t++) {
        if (strcmp(m->types[t].name, name) == 0) return t;
    }
    return JFR_NO_TYPE;
}

int jfr_meta_field(const jfr_meta *m, uint32_t t, const char *name) {
    if (t == JFR_NO_TYPE) return -1;
    for (uint32_t f = 0; f < m->types[t].field_count; f++) {
        if (strcmp(m->types[t].fields[f].name, name) == 0) return (int)f;
    }
    return -1;
}
