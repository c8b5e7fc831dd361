/*
 * Test helpers for the class file rewriter: build tiny class files by hand (any version, any constant pool
 * entry, any method code and Code sub-attribute, malformed on purpose where a test wants), and look into a
 * rewritten class (a method's code, exception table, Code sub-attributes). Used by test_classfile*.c.
 */
#ifndef TEST_CLASSFILE_BUILDER_H
#define TEST_CLASSFILE_BUILDER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "classfile.h"
#include "classfile_parts.h"

typedef struct {
    uint8_t *d;
    size_t n, cap;
} tb;

static inline void tb_put(tb *b, const void *p, size_t n) {
    if (b->cap - b->n < n) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap - b->n < n) cap *= 2;
        b->d = realloc(b->d, cap);
        if (!b->d) abort();
        b->cap = cap;
    }
    if (n) memcpy(b->d + b->n, p, n);
    b->n += n;
}
static inline void tb1(tb *b, uint32_t v) { uint8_t x = (uint8_t)v; tb_put(b, &x, 1); }
static inline void tb2(tb *b, uint32_t v) { tb1(b, v >> 8); tb1(b, v); }
static inline void tb4(tb *b, uint32_t v) { tb2(b, v >> 16); tb2(b, v); }
static inline void tb_free(tb *b) { free(b->d); memset(b, 0, sizeof(*b)); }

/* A class under construction: its pool (entries numbered from 1) and its methods. */
typedef struct {
    int major, minor;
    tb pool;
    uint32_t count;  /* next pool index */
    tb methods;
    uint32_t n_methods;
    uint16_t this_class;
} tclass;

static inline void tclass_init(tclass *c, int major, const char *name) {
    memset(c, 0, sizeof(*c));
    c->major = major;
    c->count = 1;
    tb1(&c->pool, CP_UTF8);
    tb2(&c->pool, (uint32_t)strlen(name));
    tb_put(&c->pool, name, strlen(name));
    tb1(&c->pool, CP_CLASS);
    tb2(&c->pool, 1);
    c->count = 3;
    c->this_class = 2;
}

static inline uint16_t t_utf8(tclass *c, const char *s) {
    tb1(&c->pool, CP_UTF8);
    tb2(&c->pool, (uint32_t)strlen(s));
    tb_put(&c->pool, s, strlen(s));
    return (uint16_t)c->count++;
}
/* Class, String, MethodType, Module, Package: one u2. */
static inline uint16_t t_ref1(tclass *c, uint8_t tag, uint16_t a) {
    tb1(&c->pool, tag);
    tb2(&c->pool, a);
    return (uint16_t)c->count++;
}
/* Fieldref, Methodref, InterfaceMethodref, NameAndType, Dynamic, InvokeDynamic, Integer, Float: two u2. */
static inline uint16_t t_ref2(tclass *c, uint8_t tag, uint16_t a, uint16_t b) {
    tb1(&c->pool, tag);
    tb2(&c->pool, a);
    tb2(&c->pool, b);
    return (uint16_t)c->count++;
}
static inline uint16_t t_wide_const(tclass *c, uint8_t tag) {  /* Long, Double: two slots */
    tb1(&c->pool, tag);
    tb4(&c->pool, 0x12345678);
    tb4(&c->pool, 0x9abcdef0);
    uint16_t i = (uint16_t)c->count;
    c->count += 2;
    return i;
}
static inline uint16_t t_method_handle(tclass *c, uint8_t kind, uint16_t ref) {
    tb1(&c->pool, CP_METHOD_HANDLE);
    tb1(&c->pool, kind);
    tb2(&c->pool, ref);
    return (uint16_t)c->count++;
}

/* Code attribute contents: header, code, exception table (4 u2 each), sub-attributes (already encoded). */
static inline void t_code_body(tb *body, const uint8_t *code, uint32_t len, const uint16_t *handlers, int n_handlers,
                               const tb *attrs, int n_attrs) {
    tb2(body, 4);  /* max_stack */
    tb2(body, 4);  /* max_locals */
    tb4(body, len);
    tb_put(body, code, len);
    tb2(body, (uint32_t)n_handlers);
    for (int i = 0; i < n_handlers * 4; i++) tb2(body, handlers[i]);
    tb2(body, (uint32_t)n_attrs);
    if (attrs) tb_put(body, attrs->d, attrs->n);
}

/* Appends an attribute (name, length, body) to an attribute list. */
static inline void t_attr(tclass *c, tb *list, const char *name, const void *body, size_t len) {
    tb2(list, t_utf8(c, name));
    tb4(list, (uint32_t)len);
    tb_put(list, body, len);
}

/* A method; code_body NULL for none (abstract/native). */
static inline void t_method(tclass *c, uint16_t access, const char *name, const char *desc, const tb *code_body) {
    uint16_t n = t_utf8(c, name), d = t_utf8(c, desc);
    uint16_t code_name = code_body ? t_utf8(c, "Code") : 0;
    tb2(&c->methods, access);
    tb2(&c->methods, n);
    tb2(&c->methods, d);
    tb2(&c->methods, code_body ? 1 : 0);
    if (code_body) {
        tb2(&c->methods, code_name);
        tb4(&c->methods, (uint32_t)code_body->n);
        tb_put(&c->methods, code_body->d, code_body->n);
    }
    c->n_methods++;
}

/* A static ()V method with this code and nothing else. */
static inline void t_simple_method(tclass *c, const char *name, const uint8_t *code, uint32_t len) {
    tb body = {0};
    t_code_body(&body, code, len, NULL, 0, NULL, 0);
    t_method(c, 0x0009, name, "()V", &body);
    tb_free(&body);
}

/* The class file; frees the builder. */
static inline uint8_t *tclass_finish(tclass *c, size_t *len) {
    tb out = {0};
    tb4(&out, 0xCAFEBABE);
    tb2(&out, (uint32_t)c->minor);
    tb2(&out, (uint32_t)c->major);
    tb2(&out, c->count);
    tb_put(&out, c->pool.d, c->pool.n);
    tb2(&out, 0x0021);
    tb2(&out, c->this_class);
    tb2(&out, 0);  /* super_class: none, as for java/lang/Object; the rewriter does not care */
    tb2(&out, 0);  /* interfaces */
    tb2(&out, 0);  /* fields */
    tb2(&out, c->n_methods);
    tb_put(&out, c->methods.d, c->methods.n);
    tb2(&out, 0);  /* attributes */
    tb_free(&c->pool);
    tb_free(&c->methods);
    *len = out.n;
    return out.d;
}

/* One method's Code attribute in a (rewritten) class. */
typedef struct {
    uint32_t max_stack, max_locals, code_len;
    const uint8_t *code;
    uint16_t n_handlers;
    const uint8_t *handlers;  /* 8 bytes each */
    uint16_t n_attrs;
    const uint8_t *attrs;
    classfile_pool pool;  /* of the class; free with classfile_pool_free */
} tcode;

/* Finds method 'name' (first of that name) and its Code attribute; false when absent. */
static inline bool t_find_code(const uint8_t *cls, size_t len, const char *name, tcode *out) {
    memset(out, 0, sizeof(*out));
    char why[256];
    classfile_err err = {why, sizeof(why)};
    if (!classfile_pool_parse(&out->pool, cls, len, &err)) return false;
    classfile_cursor c = {cls, len, out->pool.end + 6};
    uint16_t n, fields, methods;
    if (!classfile_read2(&c, &n) || !classfile_skip(&c, n * 2u) || !classfile_read2(&c, &fields)) return false;
    for (uint32_t i = 0; i < fields; i++)
        if (!classfile_skip(&c, 6) || !classfile_skip_attributes(&c)) return false;
    if (!classfile_read2(&c, &methods)) return false;
    for (uint32_t i = 0; i < methods; i++) {
        uint16_t acc, mname, desc, attrs;
        if (!classfile_read2(&c, &acc) || !classfile_read2(&c, &mname) || !classfile_read2(&c, &desc) ||
            !classfile_read2(&c, &attrs))
            return false;
        for (uint32_t a = 0; a < attrs; a++) {
            uint16_t an;
            uint32_t alen;
            if (!classfile_read2(&c, &an) || !classfile_read4(&c, &alen) || !classfile_has(&c, alen)) return false;
            const uint8_t *b = cls + c.pos;
            c.pos += alen;
            if (!classfile_pool_utf8_is(&out->pool, mname, name) ||
                !classfile_pool_utf8_is(&out->pool, an, "Code")) continue;
            out->max_stack = classfile_u2(b);
            out->max_locals = classfile_u2(b + 2);
            out->code_len = classfile_u4(b + 4);
            out->code = b + 8;
            out->n_handlers = classfile_u2(out->code + out->code_len);
            out->handlers = out->code + out->code_len + 2;
            out->n_attrs = classfile_u2(out->handlers + 8 * out->n_handlers);
            out->attrs = out->handlers + 8 * out->n_handlers + 2;
            return true;
        }
    }
    return false;
}

/* The body of Code sub-attribute 'name' (NULL when absent), its length in *len. */
static inline const uint8_t *t_code_attr(const tcode *tc, const char *name, uint32_t *len) {
    const uint8_t *p = tc->attrs;
    for (uint32_t i = 0; i < tc->n_attrs; i++) {
        uint32_t n = classfile_u4(p + 2);
        if (classfile_pool_utf8_is(&tc->pool, classfile_u2(p), name)) {
            *len = n;
            return p + 6;
        }
        p += 6 + n;
    }
    return NULL;
}

static inline bool t_select_all(const char *c, const char *m, const char *d, void *arg) {
    (void)c, (void)m, (void)d, (void)arg;
    return true;
}

static inline bool t_select_none(const char *c, const char *m, const char *d, void *arg) {
    (void)c, (void)m, (void)d, (void)arg;
    return false;
}

#endif
