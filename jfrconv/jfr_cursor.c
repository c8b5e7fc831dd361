/*
 * jfr_cursor: see jfr_cursor.h. Strings are converted to UTF-8 here so that the rest of the reader only
 * ever sees one encoding.
 */
#include "jfr_cursor.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int jfr_cursor_fail(jfr_cursor *c, size_t offset, const char *fmt, ...) {
    if (c->error->failed) return -1;
    c->error->failed = true;
    int n = snprintf(c->error->message, sizeof(c->error->message), "at offset %zu: ", offset);
    va_list ap;
    va_start(ap, fmt);
    if (n > 0 && (size_t)n < sizeof(c->error->message))
        vsnprintf(c->error->message + n, sizeof(c->error->message) - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

jfr_cursor jfr_cursor_sub(const jfr_cursor *c, size_t start, size_t end) {
    jfr_cursor sub = {c->data, start, end, c->error};
    return sub;
}

static bool need(jfr_cursor *c, size_t n, const char *what) {
    if (c->error->failed) return false;
    if (jfr_cursor_left(c) >= n) return true;
    jfr_cursor_fail(c, c->pos, "%s: needs %zu bytes, only %zu left (truncated or corrupt)", what, n, jfr_cursor_left(c));
    return false;
}

uint8_t jfr_cursor_u8(jfr_cursor *c, const char *what) {
    if (!need(c, 1, what)) return 0;
    return c->data[c->pos++];
}

uint64_t jfr_cursor_be(jfr_cursor *c, int bytes, const char *what) {
    if (!need(c, (size_t)bytes, what)) return 0;
    uint64_t v = 0;
    for (int i = 0; i < bytes; i++) v = v << 8 | c->data[c->pos++];
    return v;
}

uint64_t jfr_cursor_varint(jfr_cursor *c, const char *what) {
    uint64_t v = 0;
    size_t start = c->pos;
    for (int i = 0; i < 9; i++) {
        if (!need(c, 1, what)) return 0;
        uint8_t b = c->data[c->pos++];
        if (i == 8) return v | (uint64_t)b << 56;  /* the ninth byte carries 8 full bits */
        v |= (uint64_t)(b & 0x7f) << (7 * i);
        if (!(b & 0x80)) return v;
    }
    jfr_cursor_fail(c, start, "%s: malformed varint", what);  /* not reached: the loop returns */
    return 0;
}

uint64_t jfr_cursor_varint_sized(jfr_cursor *c, int bits, const char *what) {
    size_t start = c->pos;
    uint64_t v = jfr_cursor_varint(c, what);
    if (!jfr_cursor_ok(c) || bits >= 64) return v;
    size_t len = c->pos - start, most = ((size_t)bits + 6) / 7;
    if (len > most)
        jfr_cursor_fail(c, start, "field '%s': a %zu-byte varint for a %d-bit value, which takes at most %zu bytes (a negative "
                 "value written as 64 bits?)", what, len, bits, most);
    else if (v >> bits)
        jfr_cursor_fail(c, start, "field '%s': value 0x%llx does not fit its declared %d bits", what, (unsigned long long)v, bits);
    return jfr_cursor_ok(c) ? v : 0;
}

int jfr_cursor_skip(jfr_cursor *c, size_t n, const char *what) {
    if (!need(c, n, what)) return -1;
    c->pos += n;
    return 0;
}

uint64_t jfr_cursor_count(jfr_cursor *c, const char *what) {
    size_t start = c->pos;
    uint64_t n = jfr_cursor_varint(c, what);
    if (jfr_cursor_ok(c) && n > jfr_cursor_left(c)) {
        jfr_cursor_fail(c, start, "%s: count %llu is larger than the %zu bytes left (corrupt)", what,
                 (unsigned long long)n, jfr_cursor_left(c));
        return 0;
    }
    return n;
}

/* Appends one code point as UTF-8 if it fits whole; control characters become '?'. */
static void put_code_point(char *out, size_t outlen, size_t *used, uint32_t cp) {
    char tmp[4];
    size_t n;
    if (cp < 0x20 || cp == 0x7f) cp = '?';
    if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd;  /* an unpaired surrogate */
    if (cp > 0x10ffff) cp = 0xfffd;
    if (cp < 0x80) {
        tmp[0] = (char)cp;
        n = 1;
    } else if (cp < 0x800) {
        tmp[0] = (char)(0xc0 | cp >> 6);
        tmp[1] = (char)(0x80 | (cp & 0x3f));
        n = 2;
    } else if (cp < 0x10000) {
        tmp[0] = (char)(0xe0 | cp >> 12);
        tmp[1] = (char)(0x80 | (cp >> 6 & 0x3f));
        tmp[2] = (char)(0x80 | (cp & 0x3f));
        n = 3;
    } else {
        tmp[0] = (char)(0xf0 | cp >> 18);
        tmp[1] = (char)(0x80 | (cp >> 12 & 0x3f));
        tmp[2] = (char)(0x80 | (cp >> 6 & 0x3f));
        tmp[3] = (char)(0x80 | (cp & 0x3f));
        n = 4;
    }
    if (*used + n >= outlen) return;
    memcpy(out + *used, tmp, n);
    *used += n;
}

/* UTF-8 bytes are copied as they are (the JVM's modified UTF-8 included), control bytes replaced. */
static void put_utf8(char *out, size_t outlen, size_t *used, const uint8_t *s, size_t n) {
    for (size_t i = 0; i < n && *used + 1 < outlen; i++) {
        uint8_t b = s[i];
        out[(*used)++] = (char)(b < 0x20 || b == 0x7f ? '?' : b);
    }
}

int jfr_cursor_string(jfr_cursor *c, char *out, size_t outlen, uint64_t *pool_key, const char *what) {
    size_t used = 0, start = c->pos;
    if (outlen) out[0] = 0;
    uint8_t tag = jfr_cursor_u8(c, what);
    if (!jfr_cursor_ok(c)) return -1;
    switch (tag) {
    case JFR_STR_NULL:
    case JFR_STR_EMPTY:
        break;
    case JFR_STR_POOL:
        if (!pool_key) return jfr_cursor_fail(c, start, "%s: a string-pool reference where none is allowed", what);
        *pool_key = jfr_cursor_varint(c, what);
        break;
    case JFR_STR_UTF8:
    case JFR_STR_LATIN1: {
        uint64_t n = jfr_cursor_count(c, what);
        if (!jfr_cursor_ok(c)) return -1;
        if (tag == JFR_STR_UTF8) put_utf8(out, outlen, &used, c->data + c->pos, (size_t)n);
        else for (uint64_t i = 0; i < n; i++) put_code_point(out, outlen, &used, c->data[c->pos + i]);
        c->pos += n;
        break;
    }
    case JFR_STR_CHARS: {
        uint64_t n = jfr_cursor_count(c, what);
        for (uint64_t i = 0; i < n && jfr_cursor_ok(c); i++) {
            uint32_t unit = (uint32_t)(jfr_cursor_varint(c, what) & 0xffff);
            if (unit >= 0xd800 && unit < 0xdc00 && i + 1 < n) {  /* a surrogate pair */
                size_t at = c->pos;
                uint32_t low = (uint32_t)(jfr_cursor_varint(c, what) & 0xffff);
                if (low >= 0xdc00 && low <= 0xdfff) {
                    unit = 0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00);
                    i++;
                } else {
                    c->pos = at;
                }
            }
            put_code_point(out, outlen, &used, unit);
        }
        break;
    }
    default:
        return jfr_cursor_fail(c, start, "%s: unknown string encoding %u (expected 0-5)", what, tag);
    }
    if (outlen) out[used < outlen ? used : outlen - 1] = 0;
    return jfr_cursor_ok(c) ? tag : -1;
}
