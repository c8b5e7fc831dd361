/*
 * classfile_buf: the byte-level tools of the class file rewriter: bounds-checked reads over the input,
 * a growable output buffer, and the error text. Used by classfile*.c only.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "classfile_parts.h"

bool classfile_fail(classfile_err *err, const char *fmt, ...) {
    if (err && err->why && err->len > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->why, err->len, fmt, ap);
        va_end(ap);
    }
    return false;
}

bool classfile_read2(classfile_cursor *c, uint16_t *v) {
    if (!classfile_has(c, 2)) return false;
    *v = classfile_u2(c->data + c->pos);
    c->pos += 2;
    return true;
}

bool classfile_read4(classfile_cursor *c, uint32_t *v) {
    if (!classfile_has(c, 4)) return false;
    *v = classfile_u4(c->data + c->pos);
    c->pos += 4;
    return true;
}

bool classfile_skip(classfile_cursor *c, size_t n) {
    if (!classfile_has(c, n)) return false;
    c->pos += n;
    return true;
}

bool classfile_skip_attributes(classfile_cursor *c) {
    uint16_t count;
    if (!classfile_read2(c, &count)) return false;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t len;
        if (!classfile_skip(c, 2) || !classfile_read4(c, &len) || !classfile_skip(c, len)) return false;
    }
    return true;
}

void classfile_buf_put(classfile_buf *b, const void *bytes, size_t n) {
    if (b->failed || n == 0) return;
    if (b->cap - b->len < n) {
        size_t cap = b->cap ? b->cap : 1024;
        while (cap - b->len < n) {
            if (cap > SIZE_MAX / 2) {
                b->failed = true;
                return;
            }
            cap *= 2;
        }
        uint8_t *data = realloc(b->data, cap);
        if (!data) {
            b->failed = true;
            return;
        }
        b->data = data;
        b->cap = cap;
    }
    memcpy(b->data + b->len, bytes, n);
    b->len += n;
}

void classfile_buf_put1(classfile_buf *b, uint32_t v) {
    uint8_t x = (uint8_t)v;
    classfile_buf_put(b, &x, 1);
}

void classfile_buf_put2(classfile_buf *b, uint32_t v) {
    uint8_t x[2] = {(uint8_t)(v >> 8), (uint8_t)v};
    classfile_buf_put(b, x, 2);
}

void classfile_buf_put4(classfile_buf *b, uint32_t v) {
    uint8_t x[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
    classfile_buf_put(b, x, 4);
}

void classfile_buf_free(classfile_buf *b) {
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}
