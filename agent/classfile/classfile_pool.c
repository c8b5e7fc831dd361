/*
 * classfile_pool: the constant pool of a class file (JVMS 4.4): parsing every tag, cross-checking the
 * indexes entries refer to, looking entries up, and appending the entries a call to the helper method
 * needs (Utf8, Class, NameAndType, Methodref), reusing equal existing ones. Used by classfile*.c only.
 *
 * Every reference between entries is checked at parse time, so later lookups (class names, member names,
 * attribute names) can trust an index once its tag matches. The check is stricter than needed for the
 * rewrite on purpose: a pool we do not fully understand is a class we leave alone.
 */
#include <stdlib.h>
#include <string.h>

#include "classfile_parts.h"

/* Bytes after the tag byte for fixed-size tags; 0 for Utf8 (variable) and unknown tags. */
static size_t entry_size(uint8_t tag) {
    switch (tag) {
    case CP_CLASS: case CP_STRING: case CP_METHOD_TYPE: case CP_MODULE: case CP_PACKAGE:
        return 2;
    case CP_METHOD_HANDLE:
        return 3;
    case CP_INTEGER: case CP_FLOAT: case CP_FIELDREF: case CP_METHODREF: case CP_INTERFACE_METHODREF:
    case CP_NAME_AND_TYPE: case CP_DYNAMIC: case CP_INVOKE_DYNAMIC:
        return 4;
    case CP_LONG: case CP_DOUBLE:
        return 8;
    default:
        return 0;
    }
}

static bool tag_is(const classfile_pool *pool, uint32_t index, uint8_t tag) {
    return index > 0 && index < pool->count && pool->tags[index] == tag;
}

/* Whether entry i's references point at entries of the kinds JVMS 4.4 requires. */
static bool entry_refs_ok(const classfile_pool *pool, uint32_t i, classfile_err *err) {
    const uint8_t *p = pool->data + pool->offsets[i] + 1;
    uint8_t tag = pool->tags[i];
    bool ok = true;
    switch (tag) {
    case CP_CLASS: case CP_STRING: case CP_METHOD_TYPE: case CP_MODULE: case CP_PACKAGE:
        ok = tag_is(pool, classfile_u2(p), CP_UTF8);
        break;
    case CP_FIELDREF: case CP_METHODREF: case CP_INTERFACE_METHODREF:
        ok = tag_is(pool, classfile_u2(p), CP_CLASS) && tag_is(pool, classfile_u2(p + 2), CP_NAME_AND_TYPE);
        break;
    case CP_NAME_AND_TYPE:
        ok = tag_is(pool, classfile_u2(p), CP_UTF8) && tag_is(pool, classfile_u2(p + 2), CP_UTF8);
        break;
    case CP_DYNAMIC: case CP_INVOKE_DYNAMIC:  /* the first u2 indexes BootstrapMethods, not the pool */
        ok = tag_is(pool, classfile_u2(p + 2), CP_NAME_AND_TYPE);
        break;
    case CP_METHOD_HANDLE: {
        uint8_t kind = p[0];
        uint16_t ref = classfile_u2(p + 1);
        ok = kind >= 1 && kind <= 9 &&
             (tag_is(pool, ref, CP_FIELDREF) || tag_is(pool, ref, CP_METHODREF) ||
              tag_is(pool, ref, CP_INTERFACE_METHODREF));
        break;
    }
    default:
        break;
    }
    if (!ok) return classfile_fail(err,
        "constant pool entry %u (tag %u) refers to a missing or wrong-kind entry", i, tag);
    return true;
}

bool classfile_pool_parse(classfile_pool *pool, const uint8_t *data, size_t len, classfile_err *err) {
    memset(pool, 0, sizeof(*pool));
    pool->data = data;
    classfile_cursor c = {data, len, 8};
    uint16_t count;
    if (!classfile_read2(&c, &count)) return classfile_fail(err, "truncated before the constant pool count");
    if (count == 0) return classfile_fail(err, "constant pool count is 0 (at least 1 is required)");
    pool->count = count;
    pool->tags = calloc(count, 1);
    pool->offsets = calloc(count, sizeof(uint32_t));
    if (!pool->tags || !pool->offsets) return classfile_fail(err, "out of memory for %u constant pool entries", count);
    for (uint32_t i = 1; i < count; i++) {
        if (!classfile_has(&c, 1))
            return classfile_fail(err, "truncated in constant pool entry %u of %u", i, count - 1);
        uint8_t tag = data[c.pos];
        pool->offsets[i] = (uint32_t)c.pos;
        c.pos++;
        size_t size = entry_size(tag);
        if (tag == CP_UTF8) {
            uint16_t n;
            if (!classfile_read2(&c, &n) || !classfile_skip(&c, n))
                return classfile_fail(err, "truncated in constant pool entry %u (Utf8)", i);
        } else if (size == 0) {
            return classfile_fail(err, "unknown constant pool tag %u at index %u", tag, i);
        } else if (!classfile_skip(&c, size)) {
            return classfile_fail(err, "truncated in constant pool entry %u (tag %u)", i, tag);
        }
        pool->tags[i] = tag;
        if (tag == CP_LONG || tag == CP_DOUBLE) {  /* takes two slots; the second is unusable */
            if (++i >= count) return classfile_fail(err, "8-byte constant at the last pool index %u", i - 1);
        }
    }
    pool->end = c.pos;
    for (uint32_t i = 1; i < count; i++)
        if (pool->tags[i] && !entry_refs_ok(pool, i, err)) return false;
    return true;
}

void classfile_pool_free(classfile_pool *pool) {
    free(pool->tags);
    free(pool->offsets);
    classfile_buf_free(&pool->added);
    pool->tags = NULL;
    pool->offsets = NULL;
}

bool classfile_pool_utf8(const classfile_pool *pool, uint32_t index, const uint8_t **bytes, uint16_t *len) {
    if (!tag_is(pool, index, CP_UTF8)) return false;
    const uint8_t *p = pool->data + pool->offsets[index] + 1;
    *len = classfile_u2(p);
    *bytes = p + 2;
    return true;
}

bool classfile_pool_utf8_is(const classfile_pool *pool, uint32_t index, const char *text) {
    const uint8_t *bytes;
    uint16_t len;
    size_t n = strlen(text);
    return classfile_pool_utf8(pool, index, &bytes, &len) && len == n && memcmp(bytes, text, n) == 0;
}

uint16_t classfile_pool_class_name(const classfile_pool *pool, uint32_t index) {
    if (!tag_is(pool, index, CP_CLASS)) return 0;
    return classfile_u2(pool->data + pool->offsets[index] + 1);
}

/* The first existing entry with 'tag' whose two u2 fields satisfy 'match', 0 when none. */
typedef bool (*pair_match)(const classfile_pool *pool, uint16_t a, uint16_t b, const char *x, const char *y);

static uint16_t find_pair(const classfile_pool *pool, uint8_t tag, pair_match match, const char *x, const char *y) {
    for (uint32_t i = 1; i < pool->count; i++) {
        if (pool->tags[i] != tag) continue;
        const uint8_t *p = pool->data + pool->offsets[i] + 1;
        if (match(pool, classfile_u2(p), tag == CP_CLASS ? 0 : classfile_u2(p + 2), x, y)) return (uint16_t)i;
    }
    return 0;
}

static bool class_named(const classfile_pool *pool, uint16_t name, uint16_t unused, const char *x, const char *y) {
    (void)unused, (void)y;
    return classfile_pool_utf8_is(pool, name, x);
}

static bool nat_is(const classfile_pool *pool, uint16_t name, uint16_t desc, const char *x, const char *y) {
    return classfile_pool_utf8_is(pool, name, x) && classfile_pool_utf8_is(pool, desc, y);
}

static bool ref_is(const classfile_pool *pool, uint16_t cls, uint16_t nat, const char *x, const char *y) {
    (void)y;
    /* x = "class\0name\0descriptor": three strings packed by classfile_pool_methodref */
    const char *name = x + strlen(x) + 1, *desc = name + strlen(name) + 1;
    if (!classfile_pool_utf8_is(pool, classfile_pool_class_name(pool, cls), x)) return false;
    const uint8_t *p = pool->data + pool->offsets[nat] + 1;
    return nat_is(pool, classfile_u2(p), classfile_u2(p + 2), name, desc);
}

/* Appends an entry (tag + body) and returns its index, 0 when the pool is full. */
static uint16_t append(classfile_pool *pool, uint8_t tag, const void *body, size_t n, classfile_err *err) {
    uint32_t index = pool->count + pool->added_slots;
    if (index >= 65535) {
        classfile_fail(err, "constant pool full: %u entries already, the helper call needs more (limit 65535)",
                pool->count - 1u);
        return 0;
    }
    classfile_buf_put1(&pool->added, tag);
    classfile_buf_put(&pool->added, body, n);
    if (pool->added.failed) {
        classfile_fail(err, "out of memory extending the constant pool");
        return 0;
    }
    pool->added_slots++;
    return (uint16_t)index;
}

static uint16_t append_pair(classfile_pool *pool, uint8_t tag, uint16_t a, uint16_t b, classfile_err *err) {
    uint8_t body[4];
    classfile_put2(body, a);
    classfile_put2(body + 2, b);
    return append(pool, tag, body, tag == CP_CLASS ? 2 : 4, err);
}

static uint16_t find_or_add_utf8(classfile_pool *pool, const char *text, classfile_err *err) {
    for (uint32_t i = 1; i < pool->count; i++)
        if (classfile_pool_utf8_is(pool, i, text)) return (uint16_t)i;
    size_t n = strlen(text);
    if (n > 65535) {
        classfile_fail(err, "name longer than 65535 bytes");
        return 0;
    }
    uint8_t *body = malloc(n + 2);
    if (!body) {
        classfile_fail(err, "out of memory extending the constant pool");
        return 0;
    }
    classfile_put2(body, (uint32_t)n);
    memcpy(body + 2, text, n);
    uint16_t index = append(pool, CP_UTF8, body, n + 2, err);
    free(body);
    return index;
}

uint16_t classfile_pool_methodref(classfile_pool *pool, const char *class_name, const char *method_name,
                           const char *descriptor, classfile_err *err) {
    size_t a = strlen(class_name), b = strlen(method_name), c = strlen(descriptor);
    char *packed = malloc(a + b + c + 3);
    if (!packed) {
        classfile_fail(err, "out of memory");
        return 0;
    }
    memcpy(packed, class_name, a + 1);
    memcpy(packed + a + 1, method_name, b + 1);
    memcpy(packed + a + b + 2, descriptor, c + 1);
    uint16_t ref = find_pair(pool, CP_METHODREF, ref_is, packed, NULL);
    free(packed);
    if (ref) return ref;

    uint16_t cls = find_pair(pool, CP_CLASS, class_named, class_name, NULL);
    if (!cls) {
        uint16_t name = find_or_add_utf8(pool, class_name, err);
        if (!name || !(cls = append_pair(pool, CP_CLASS, name, 0, err))) return 0;
    }
    uint16_t nat = find_pair(pool, CP_NAME_AND_TYPE, nat_is, method_name, descriptor);
    if (!nat) {
        uint16_t name = find_or_add_utf8(pool, method_name, err);
        uint16_t desc = name ? find_or_add_utf8(pool, descriptor, err) : 0;
        if (!desc || !(nat = append_pair(pool, CP_NAME_AND_TYPE, name, desc, err))) return 0;
    }
    return append_pair(pool, CP_METHODREF, cls, nat, err);
}

uint16_t classfile_pool_utf8_add(classfile_pool *pool, const char *text, classfile_err *err) {
    return find_or_add_utf8(pool, text, err);
}

uint16_t classfile_pool_class(classfile_pool *pool, const char *class_name, classfile_err *err) {
    uint16_t cls = find_pair(pool, CP_CLASS, class_named, class_name, NULL);
    if (cls) return cls;
    uint16_t name = find_or_add_utf8(pool, class_name, err);
    return name ? append_pair(pool, CP_CLASS, name, 0, err) : 0;
}
