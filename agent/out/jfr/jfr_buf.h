/*
 * jfr_buf: the byte-level encoding of Java Flight Recorder files (see jfr_types.h for what is encoded):
 * a growable byte buffer with LEB128 varints, tagged strings, big-endian fixed-width fields, and events
 * framed by a size that is patched once the event is complete. Pure functions; used by the JFR writer
 * (metadata, constant pools, events) and by its unit tests. Not for signal handlers (it allocates).
 */
#ifndef LIBPROF_JFR_BUF_H
#define LIBPROF_JFR_BUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint8_t *data;
    size_t len, cap;
    bool failed;   /* an allocation failed: the content is incomplete, the caller reports it */
} jfr_buf;

void jfr_buf_init(jfr_buf *b);
void jfr_buf_free(jfr_buf *b);
/* Empties the buffer, keeping its memory. */
static inline void jfr_buf_clear(jfr_buf *b) { b->len = 0; }

void jfr_buf_put_bytes(jfr_buf *b, const void *data, size_t n);
void jfr_buf_put_u8(jfr_buf *b, uint8_t v);
void jfr_buf_put_be16(jfr_buf *b, uint16_t v);
void jfr_buf_put_be32(jfr_buf *b, uint32_t v);
void jfr_buf_put_be64(jfr_buf *b, uint64_t v);
/* A float as its IEEE-754 bits, big-endian (JFR float fields are not varints). */
void jfr_buf_put_float(jfr_buf *b, float v);
/* LEB128: 7 bits per byte, low group first, at most 9 bytes (the 9th carries 8 bits). For long fields,
 * keys, sizes and counts; a negative long is its 64-bit two's complement (cast it to uint64_t). */
void jfr_buf_put_varint(jfr_buf *b, uint64_t v);
/* Signed fields of narrower declared types are the two's complement of their own width, as the JDK writes
 * them: an int -1 is ff ff ff ff 0f (5 bytes), a short -1 is ff ff 03. Readers that decode an int field
 * into 32 bits (async-profiler's) fail on a 64-bit sign extension. */
void jfr_buf_put_int(jfr_buf *b, int32_t v);
void jfr_buf_put_short(jfr_buf *b, int16_t v);
/* A value below 2^35 in exactly 5 bytes (redundant continuation bytes are legal): room for a size that is
 * known only later. */
void jfr_buf_put_varint5(jfr_buf *b, uint64_t v);
void jfr_patch_varint5(jfr_buf *b, size_t at, uint64_t v);
void jfr_patch_be64(jfr_buf *b, size_t at, uint64_t v);
/* A string field: NULL -> tag 0 (null), "" -> tag 1, else tag 3 with the UTF-8 bytes. */
void jfr_buf_put_string(jfr_buf *b, const char *s);
/* Tag 3 and the UTF-8 bytes, "" included (length 0): the symbol pool's strings, which async-profiler's
 * converter reads only in this form. */
void jfr_buf_put_utf8(jfr_buf *b, const char *s);

/* Encoded length of a varint, and decoding (for tests and checks). jfr_get_varint returns the bytes read,
 * 0 when the input ends before the value does. */
size_t jfr_varint_len(uint64_t v);
size_t jfr_get_varint(const uint8_t *p, size_t avail, uint64_t *out);

/* Events: [size][type id][fields]. begin reserves the 5-byte size and writes the type id; end patches the
 * size with the whole event's length (size field included). */
size_t jfr_buf_event_begin(jfr_buf *b, uint64_t type_id);
void jfr_buf_event_end(jfr_buf *b, size_t at);

#endif
