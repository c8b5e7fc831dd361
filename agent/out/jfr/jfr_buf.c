#include "jfr_buf.h"

#include "array_grow.h"

#include <stdlib.h>
#include <string.h>

void jfr_buf_init(jfr_buf *b) {
    memset(b, 0, sizeof(*b));
}

void jfr_buf_free(jfr_buf *b) {
    free(b->data);
    memset(b, 0, sizeof(*b));
}

/* Room for n more bytes; on failure the buffer is marked failed and writes are dropped. */
static bool reserve(jfr_buf *b, size_t n) {
    if (b->failed) return false;
    if (b->len + n <= b->cap) return true;   /* every write asks: the common answer without a call */
    if (array_grow((void **)&b->data, 1, b->len + n, &b->cap)) {
        b->failed = true;
        return false;
    }
    return true;
}

void jfr_buf_put_bytes(jfr_buf *b, const void *data, size_t n) {
    if (!reserve(b, n)) return;
    memcpy(b->data + b->len, data, n);
    b->len += n;
}

void jfr_buf_put_u8(jfr_buf *b, uint8_t v) {
    if (!reserve(b, 1)) return;
    b->data[b->len++] = v;
}

static void put_be(jfr_buf *b, uint64_t v, int bytes) {
    if (!reserve(b, (size_t)bytes)) return;
    for (int i = bytes - 1; i >= 0; i--) b->data[b->len++] = (uint8_t)(v >> (8 * i));
}

void jfr_buf_put_be16(jfr_buf *b, uint16_t v) { put_be(b, v, 2); }
void jfr_buf_put_be32(jfr_buf *b, uint32_t v) { put_be(b, v, 4); }
void jfr_buf_put_be64(jfr_buf *b, uint64_t v) { put_be(b, v, 8); }

void jfr_buf_put_float(jfr_buf *b, float v) {
    uint32_t bits;
    memcpy(&bits, &v, sizeof(bits));
    put_be(b, bits, 4);
}

size_t jfr_varint_len(uint64_t v) {
    size_t n = 1;
    while (v >= 0x80 && n < 9) {
        v >>= 7;
        n++;
    }
    return n;
}

void jfr_buf_put_varint(jfr_buf *b, uint64_t v) {
    if (!reserve(b, 9)) return;
    for (int i = 0; i < 8; i++) {
        if (v < 0x80) {
            b->data[b->len++] = (uint8_t)v;
            return;
        }
        b->data[b->len++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    b->data[b->len++] = (uint8_t)v;   /* the 9th byte carries 8 bits */
}

void jfr_buf_put_int(jfr_buf *b, int32_t v) {
    jfr_buf_put_varint(b, (uint32_t)v);
}

void jfr_buf_put_short(jfr_buf *b, int16_t v) {
    jfr_buf_put_varint(b, (uint16_t)v);
}

static void encode5(uint8_t *p, uint64_t v) {
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)((v >> (7 * i)) | 0x80);
    p[4] = (uint8_t)((v >> 28) & 0x7f);
}

void jfr_buf_put_varint5(jfr_buf *b, uint64_t v) {
    if (!reserve(b, 5)) return;
    encode5(b->data + b->len, v);
    b->len += 5;
}

void jfr_patch_varint5(jfr_buf *b, size_t at, uint64_t v) {
    if (!b->failed && at + 5 <= b->len) encode5(b->data + at, v);
}

void jfr_patch_be64(jfr_buf *b, size_t at, uint64_t v) {
    if (b->failed || at + 8 > b->len) return;
    for (int i = 0; i < 8; i++) b->data[at + i] = (uint8_t)(v >> (8 * (7 - i)));
}

void jfr_buf_put_utf8(jfr_buf *b, const char *s) {
    size_t n = strlen(s);
    jfr_buf_put_u8(b, 3);
    jfr_buf_put_varint(b, n);
    jfr_buf_put_bytes(b, s, n);
}

void jfr_buf_put_string(jfr_buf *b, const char *s) {
    if (!s || !*s) jfr_buf_put_u8(b, s ? 1 : 0);
    else jfr_buf_put_utf8(b, s);
}

size_t jfr_get_varint(const uint8_t *p, size_t avail, uint64_t *out) {
    uint64_t v = 0;
    for (size_t i = 0; i < 9; i++) {
        if (i >= avail) return 0;
        if (i == 8) {
            v |= (uint64_t)p[i] << 56;
            *out = v;
            return 9;
        }
        v |= (uint64_t)(p[i] & 0x7f) << (7 * i);
        if (!(p[i] & 0x80)) {
            *out = v;
            return i + 1;
        }
    }
    return 0;
}

size_t jfr_buf_event_begin(jfr_buf *b, uint64_t type_id) {
    size_t at = b->len;
    jfr_buf_put_varint5(b, 0);
    jfr_buf_put_varint(b, type_id);
    return at;
}

void jfr_buf_event_end(jfr_buf *b, size_t at) {
    jfr_patch_varint5(b, at, b->len - at);
}
