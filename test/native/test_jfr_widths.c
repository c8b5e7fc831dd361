/* Unit tests of JFR field widths: signed int and short fields are written in their declared width (an int
 * -1 is ff ff ff ff 0f, as the JDK writes it), and the reader refuses a varint wider than its field's
 * type, naming the field and the offset, so a writer that sign-extends to 64 bits fails the round trip. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jfr_convert.h"
#include "jfr_buf.h"
#include "jfr_cursor.h"
#include "jfr_synth.h"

static void assert_encodes(void (*put)(jfr_buf *, int64_t), int64_t v, const uint8_t *want, size_t n) {
    jfr_buf b;
    jfr_buf_init(&b);
    put(&b, v);
    assert_int_equal(b.len, n);
    assert_memory_equal(b.data, want, n);
    jfr_buf_free(&b);
}
static void put_int(jfr_buf *b, int64_t v) { jfr_buf_put_int(b, (int32_t)v); }
static void put_short(jfr_buf *b, int64_t v) { jfr_buf_put_short(b, (int16_t)v); }
static void put_long(jfr_buf *b, int64_t v) { jfr_buf_put_varint(b, (uint64_t)v); }

static void test_signed_fields_in_their_width(void **state) {
    (void)state;
    assert_encodes(put_int, -1, (const uint8_t[]){0xff, 0xff, 0xff, 0xff, 0x0f}, 5);
    assert_encodes(put_int, INT32_MIN, (const uint8_t[]){0x80, 0x80, 0x80, 0x80, 0x08}, 5);
    assert_encodes(put_int, -3, (const uint8_t[]){0xfd, 0xff, 0xff, 0xff, 0x0f}, 5);
    assert_encodes(put_int, 300, (const uint8_t[]){0xac, 0x02}, 2);
    assert_encodes(put_int, 0, (const uint8_t[]){0x00}, 1);
    assert_encodes(put_short, -1, (const uint8_t[]){0xff, 0xff, 0x03}, 3);
    assert_encodes(put_short, 5, (const uint8_t[]){0x05}, 1);
    /* long stays 64-bit: -1 is nine bytes, the last carrying 8 bits */
    assert_encodes(put_long, -1, (const uint8_t[]){0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, 9);
}

static jfr_error error;

static uint64_t read_sized(const uint8_t *bytes, size_t n, int bits) {
    memset(&error, 0, sizeof(error));
    jfr_cursor c = {bytes, 0, n, &error};
    return jfr_cursor_varint_sized(&c, bits, "lineNumber");
}

static void test_reader_is_strict_about_widths(void **state) {
    (void)state;
    const uint8_t int_minus_one[] = {0xff, 0xff, 0xff, 0xff, 0x0f};
    assert_true(read_sized(int_minus_one, 5, 32) == 0xffffffffu);
    assert_false(error.failed);
    const uint8_t padded[] = {0x85, 0x80, 0x80, 0x80, 0x00};   /* 5 in a fixed 5-byte form: still 5 bytes */
    assert_int_equal(read_sized(padded, 5, 32), 5);
    assert_false(error.failed);
    const uint8_t long_minus_one[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    assert_true(read_sized(long_minus_one, 9, 64) == UINT64_MAX);
    assert_false(error.failed);
    read_sized(long_minus_one, 9, 32);
    assert_true(error.failed);
    assert_non_null(strstr(error.message, "at offset 0"));
    assert_non_null(strstr(error.message, "'lineNumber'"));
    assert_non_null(strstr(error.message, "9-byte"));
    const uint8_t too_big[] = {0xff, 0xff, 0xff, 0xff, 0x1f};   /* 5 bytes, but 2^33 - 1 */
    read_sized(too_big, 5, 32);
    assert_true(error.failed);
    assert_non_null(strstr(error.message, "0x1ffffffff"));
    const uint8_t short_minus_one[] = {0xff, 0xff, 0x03};
    assert_int_equal(read_sized(short_minus_one, 3, 16), 0xffff);
    assert_false(error.failed);
    read_sized(int_minus_one, 5, 16);
    assert_true(error.failed);
}

static int convert_synth(char *message, size_t len) {
    synth_buf b = synth_chunk();
    jfr_convert_options o;
    jfr_convert_options_init(&o);
    profile p;
    profile_init(&p);
    jfr_convert_stats st = {0};
    jfr_error e = {0};
    int rc = jfr_convert(&o, b.data, b.len, &p, &st, &e);
    snprintf(message, len, "%s", e.message);
    profile_free(&p);
    free(b.data);
    return rc;
}

/* A whole chunk whose frames carry line -1: read when written as the JDK does, refused (naming the field
 * and the chunk) when sign-extended to 64 bits. */
static void test_chunk_with_negative_lines(void **state) {
    (void)state;
    char message[JFR_ERROR_MAX];
    synth_line = -1;
    synth_line_as_long = false;
    assert_int_equal(convert_synth(message, sizeof(message)), 0);
    synth_line_as_long = true;
    assert_int_equal(convert_synth(message, sizeof(message)), -1);
    assert_non_null(strstr(message, "chunk 1"));
    assert_non_null(strstr(message, "'lineNumber'"));
    assert_non_null(strstr(message, "9-byte varint for a 32-bit value"));
    synth_line = 7;
    synth_line_as_long = false;
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_signed_fields_in_their_width),
        cmocka_unit_test(test_reader_is_strict_about_widths),
        cmocka_unit_test(test_chunk_with_negative_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
