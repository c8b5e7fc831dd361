/* Unit tests of reading a cut JFR file: what a killed process or a full disk leaves (a file that ends in
 * the middle of a chunk, or with a chunk still marked "being written") converts to the samples of its
 * finished chunks, and the unfinished rest is reported, not an error; an unfinished first chunk still is. */
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
#include "jfr_rchunk.h"
#include "jfr_synth.h"
#include "out_collapsed.h"

static const char *const ONE_CHUNK = "demo/Main.main;demo/Main.work;demo/Main.spin 3\n"
                                     "demo/Main.main;java/lang/Thread.sleep 2\n"
                                     "demo/Main.main;[unknown_Java];deflate;do_syscall_64 1\n"
                                     "[truncated];demo/Main.spin 1\n";

/* Converts the first n bytes of 'data': the collapsed text (NULL on error, with *e set) and the stats. */
static char *convert_prefix(const uint8_t *data, size_t n, jfr_convert_stats *st, jfr_error *e) {
    uint8_t *copy = malloc(n ? n : 1);
    memcpy(copy, data, n);
    jfr_convert_options o;
    jfr_convert_options_init(&o);
    profile p;
    profile_init(&p);
    memset(st, 0, sizeof(*st));
    memset(e, 0, sizeof(*e));
    char *text = NULL;
    size_t len;
    if (jfr_convert(&o, copy, n, &p, st, e) == 0) {
        FILE *out = open_memstream(&text, &len);
        out_collapsed_write(&p, out);
        fclose(out);
    }
    profile_free(&p);
    free(copy);
    return text;
}

/* Two synthetic chunks back to back; *one = where the second starts. */
static synth_buf two_chunks(size_t *one) {
    synth_buf b = synth_chunk();
    *one = b.len;
    synth_buf again = synth_chunk();
    synth_bytes(&b, again.data, again.len);
    free(again.data);
    return b;
}

static void test_cut_in_the_second_chunk(void **state) {
    (void)state;
    size_t one;
    synth_buf b = two_chunks(&one);
    for (size_t n = one + 1; n < b.len; n++) {
        jfr_convert_stats st;
        jfr_error e;
        char *text = convert_prefix(b.data, n, &st, &e);
        if (!text) fail_msg("cut at %zu (second chunk at %zu): %s", n, one, e.message);
        assert_string_equal(text, ONE_CHUNK);
        assert_int_equal(st.chunks, 1);
        assert_int_equal(st.unfinished_at, one);
        assert_int_equal(st.unfinished_bytes, n - one);
        uint64_t start, end;
        assert_int_equal(jfr_convert_span(b.data, n, &start, &end, &e), 0);
        assert_true(end == SYNTH_START_NS + 6000000);
        free(text);
    }
    /* Whole: both chunks, nothing skipped. */
    jfr_convert_stats st;
    jfr_error e;
    char *text = convert_prefix(b.data, b.len, &st, &e);
    assert_non_null(text);
    assert_int_equal(st.chunks, 2);
    assert_int_equal(st.unfinished_bytes, 0);
    free(text);
    free(b.data);
}

/* A whole second chunk still marked "being written" (state 255) is not read either. */
static void test_chunk_being_written(void **state) {
    (void)state;
    size_t one;
    synth_buf b = two_chunks(&one);
    b.data[one + 64] = 255;
    jfr_convert_stats st;
    jfr_error e;
    char *text = convert_prefix(b.data, b.len, &st, &e);
    assert_non_null(text);
    assert_string_equal(text, ONE_CHUNK);
    assert_int_equal(st.unfinished_at, one);
    free(text);
    /* The same as a first chunk: nothing finished to read, an error. */
    assert_null(convert_prefix(b.data + one, b.len - one, &st, &e));
    assert_true(e.failed);
    free(b.data);
}

/* Garbage after a finished chunk is not an unfinished chunk: still an error naming chunk 2. */
static void test_garbage_is_not_a_cut(void **state) {
    (void)state;
    synth_buf b = synth_chunk();
    synth_bytes(&b, "FLX", 3);
    jfr_convert_stats st;
    jfr_error e;
    assert_null(convert_prefix(b.data, b.len, &st, &e));
    assert_non_null(strstr(e.message, "chunk 2"));
    free(b.data);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cut_in_the_second_chunk),
        cmocka_unit_test(test_chunk_being_written),
        cmocka_unit_test(test_garbage_is_not_a_cut),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
