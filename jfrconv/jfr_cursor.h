/*
 * jfr_cursor: bounds-checked reading of the JFR encodings (big-endian fixed-width header fields, LEB128
 * varints, tagged strings) from a buffer that holds a whole file. Every read checks its bounds; the first
 * failure records one message with the file offset and what was expected, and every later read on the
 * same cursor fails too, so callers may check once after a group of reads.
 * Used by the JFR reader (jfr_rchunk, jfr_meta, jfr_value, jfr_sample); no JVM dependency.
 */
#ifndef LIBPROF_JFR_CURSOR_H
#define LIBPROF_JFR_CURSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define JFR_ERROR_MAX 512

typedef struct {
    char message[JFR_ERROR_MAX];  /* "at offset N: what went wrong" */
    bool failed;
} jfr_error;

typedef struct {
    const uint8_t *data;   /* the whole file: offsets in messages are file offsets */
    size_t pos, end;       /* reads stay below 'end' (the end of the event or chunk being read) */
    jfr_error *error;
} jfr_cursor;

/* Records the first error only ("at offset %zu: " is prefixed). Returns -1 for convenience. */
int jfr_cursor_fail(jfr_cursor *c, size_t offset, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static inline bool jfr_cursor_ok(const jfr_cursor *c) { return !c->error->failed; }
static inline size_t jfr_cursor_left(const jfr_cursor *c) { return c->pos < c->end ? c->end - c->pos : 0; }

/* A cursor over [start, end) of the same data, sharing the error. */
jfr_cursor jfr_cursor_sub(const jfr_cursor *c, size_t start, size_t end);

uint8_t jfr_cursor_u8(jfr_cursor *c, const char *what);
uint64_t jfr_cursor_be(jfr_cursor *c, int bytes, const char *what);   /* 1..8 bytes, big-endian */
uint64_t jfr_cursor_varint(jfr_cursor *c, const char *what);
/* A varint of a field declared 'bits' wide (16, 32 or 64): strict about the width, as the JDK writes every
 * field with its own type's width (an int -1 is 5 bytes: ff ff ff ff 0f). More bytes than that width
 * needs, or a value beyond it (a negative int sign-extended to 64 bits), is an error naming the field. */
uint64_t jfr_cursor_varint_sized(jfr_cursor *c, int bits, const char *what);
int jfr_cursor_skip(jfr_cursor *c, size_t n, const char *what);

/* A count of items that each take at least one byte: refused when larger than the bytes left, which is
 * what keeps corrupt counts from driving huge loops or allocations. */
uint64_t jfr_cursor_count(jfr_cursor *c, const char *what);

/* Tag of a string value (JFR string encodings). */
enum {
    JFR_STR_NULL = 0, JFR_STR_EMPTY = 1, JFR_STR_POOL = 2, JFR_STR_UTF8 = 3, JFR_STR_CHARS = 4,
    JFR_STR_LATIN1 = 5,
};

/* Reads a tagged string into 'out' as UTF-8 (truncated to outlen - 1 bytes, control characters shown as
 * '?'), consuming all of its bytes. For tag 2 (a reference into the string pool) *pool_key is set and
 * 'out' is left empty; pool_key may be NULL where references are not allowed (metadata). Returns the tag,
 * or -1 on error. */
int jfr_cursor_string(jfr_cursor *c, char *out, size_t outlen, uint64_t *pool_key, const char *what);

#endif
