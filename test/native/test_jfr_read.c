/* Unit tests of the JFR reader and converter on hand-built input (jfr_synth.h). */
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
#include "jfr_cursor.h"
#include "jfr_synth.h"
#include "out_collapsed.h"
#include "profile.h"

static jfr_error error;

static jfr_cursor cursor_over(const uint8_t *data, size_t n) {
    memset(&error, 0, sizeof(error));
    jfr_cursor c = {data, 0, n, &error};
    return c;
}

static void test_varints(void **state) {
    (void)state;
    const uint8_t bytes[] = {0x00, 0x7f, 0x80, 0x01, 0xac, 0x02,
                             0x85, 0x80, 0x80, 0x80, 0x00,                              /* 5 in a fixed 5-byte form */
                             0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};      /* 2^64 - 1 in 9 bytes */
    jfr_cursor c = cursor_over(bytes, sizeof(bytes));
    assert_int_equal(jfr_cursor_varint(&c, "v"), 0);
    assert_int_equal(jfr_cursor_varint(&c, "v"), 127);
    assert_int_equal(jfr_cursor_varint(&c, "v"), 128);
    assert_int_equal(jfr_cursor_varint(&c, "v"), 300);
    assert_int_equal(jfr_cursor_varint(&c, "v"), 5);
    assert_true(jfr_cursor_varint(&c, "v") == UINT64_MAX);
    assert_true(jfr_cursor_ok(&c));
    assert_int_equal(c.pos, sizeof(bytes));
    /* Truncated in the middle of a varint: an error naming the offset, and every later read fails too. */
    const uint8_t cut[] = {0x01, 0x80, 0x80};
    c = cursor_over(cut, sizeof(cut));
    assert_int_equal(jfr_cursor_varint(&c, "v"), 1);
    jfr_cursor_varint(&c, "event size");
    assert_false(jfr_cursor_ok(&c));
    assert_non_null(strstr(error.message, "at offset 3"));
    assert_non_null(strstr(error.message, "event size"));
    assert_int_equal(jfr_cursor_u8(&c, "x"), 0);
    /* Counts larger than the bytes left are refused before anyone loops or allocates on them. */
    const uint8_t count[] = {0xff, 0xff, 0x03, 1, 2};
    c = cursor_over(count, sizeof(count));
    jfr_cursor_count(&c, "pool count");
    assert_false(jfr_cursor_ok(&c));
    assert_non_null(strstr(error.message, "count 65535"));
}

static void test_strings_of_every_tag(void **state) {
    (void)state;
    synth_buf b = {0};
    synth_u8(&b, 0);                     /* null */
    synth_u8(&b, 1);                     /* empty */
    synth_u8(&b, 2); synth_varint(&b, 300);  /* pool reference */
    synth_utf8(&b, "java/util/HashMap");
    synth_u8(&b, 4); synth_varint(&b, 3);    /* UTF-16 units: 'h', U+00E9, then a pair for U+1F600 */
    synth_varint(&b, 'h'); synth_varint(&b, 0xe9);
    synth_varint(&b, 0xd83d); synth_varint(&b, 0xde00);
    synth_u8(&b, 5); synth_varint(&b, 2); synth_u8(&b, 'a'); synth_u8(&b, 0xe9);   /* Latin-1 */
    synth_utf8(&b, "a\nb");              /* control characters are not written out */
    synth_u8(&b, 9);                     /* no such tag */
    char out[64];
    uint64_t key = 0;
    jfr_cursor c = cursor_over(b.data, b.len);
    assert_int_equal(jfr_cursor_string(&c, out, sizeof(out), &key, "s"), JFR_STR_NULL);
    assert_string_equal(out, "");
    assert_int_equal(jfr_cursor_string(&c, out, sizeof(out), &key, "s"), JFR_STR_EMPTY);
    assert_int_equal(jfr_cursor_string(&c, out, sizeof(out), &key, "s"), JFR_STR_POOL);
    assert_int_equal(key, 300);
    assert_int_equal(jfr_cursor_string(&c, out, sizeof(out), &key, "s"), JFR_STR_UTF8);
    assert_string_equal(out, "java/util/HashMap");
    assert_int_equal(jfr_cursor_string(&c, out, sizeof(out), &key, "s"), JFR_STR_CHARS);
    assert_string_equal(out, "h\xc3\xa9\xef\xbf\xbd");   /* count 3: the high surrogate is left unpaired */
    free(b.data);

    b = (synth_buf){0};
    synth_u8(&b, 4); synth_varint(&b, 2); synth_varint(&b, 0xd83d); synth_varint(&b, 0xde00);
    synth_u8(&b, 5); synth_varint(&b, 2); synth_u8(&b, 'a'); synth_u8(&b, 0xe9);
    synth_utf8(&b, "a\nb");
    synth_u8(&b, 3); synth_varint(&b, 10); synth_bytes(&b, "abc", 3);   /* longer than the data */
    c = cursor_over(b.data, b.len);
    assert_int_equal(jfr_cursor_string(&c, out, sizeof(out), &key, "s"), JFR_STR_CHARS);
    assert_string_equal(out, "\xf0\x9f\x98\x80");
    assert_int_equal(jfr_cursor_string(&c, out, sizeof(out), &key, "s"), JFR_STR_LATIN1);
    assert_string_equal(out, "a\xc3\xa9");
    assert_int_equal(jfr_cursor_string(&c, out, sizeof(out), &key, "s"), JFR_STR_UTF8);
    assert_string_equal(out, "a?b");
    assert_int_equal(jfr_cursor_string(&c, out, sizeof(out), &key, "class name"), -1);
    assert_non_null(strstr(error.message, "class name"));
    free(b.data);

    /* An unknown tag, a pool reference where none is allowed, and truncation to a small buffer. */
    const uint8_t bad[] = {9};
    c = cursor_over(bad, 1);
    assert_int_equal(jfr_cursor_string(&c, out, sizeof(out), &key, "s"), -1);
    assert_non_null(strstr(error.message, "unknown string encoding 9"));
    const uint8_t ref[] = {2, 1};
    c = cursor_over(ref, 2);
    assert_int_equal(jfr_cursor_string(&c, out, sizeof(out), NULL, "metadata string"), -1);
    b = (synth_buf){0};
    synth_utf8(&b, "abcdefgh");
    c = cursor_over(b.data, b.len);
    char small[4];
    assert_int_equal(jfr_cursor_string(&c, small, sizeof(small), &key, "s"), JFR_STR_UTF8);
    assert_string_equal(small, "abc");
    assert_int_equal(c.pos, b.len);   /* the whole string is consumed all the same */
    free(b.data);
}

/* Converts 'data' with 'o' and returns the collapsed text (caller frees), or NULL with 'e' set. */
static char *convert(const jfr_convert_options *o, const uint8_t *data, size_t size, jfr_error *e) {
    profile p;
    profile_init(&p);
    jfr_convert_stats st = {0};
    memset(e, 0, sizeof(*e));
    char *text = NULL;
    if (jfr_convert(o, data, size, &p, &st, e) == 0) {
        size_t len;
        FILE *out = open_memstream(&text, &len);
        out_collapsed_write(&p, out);
        fclose(out);
    }
    profile_free(&p);
    return text;
}

static void assert_converts_to(const jfr_convert_options *o, const synth_buf *b, const char *expected) {
    jfr_error e;
    char *text = convert(o, b->data, b->len, &e);
    if (!text) fail_msg("conversion failed: %s", e.message);
    assert_string_equal(text, expected);
    free(text);
}

static void test_synthetic_chunk(void **state) {
    (void)state;
    synth_buf b = synth_chunk();
    jfr_convert_options o;
    jfr_convert_options_init(&o);
    assert_converts_to(&o, &b,
                       "demo/Main.main;demo/Main.work;demo/Main.spin 3\n"
                       "demo/Main.main;java/lang/Thread.sleep 2\n"
                       "demo/Main.main;[unknown_Java];deflate;do_syscall_64 1\n"
                       "[truncated];demo/Main.spin 1\n");
    /* Threads (javaName, else osName), annotations by frame type, the total of the weight field. */
    o.threads = true;
    o.style.ann = true;
    profile p;
    profile_init(&p);
    p.meta.total = true;
    jfr_convert_stats st = {0};
    jfr_error e = {0};
    assert_int_equal(jfr_convert(&o, b.data, b.len, &p, &st, &e), 0);
    char *text;
    size_t len;
    FILE *out = open_memstream(&text, &len);
    out_collapsed_write(&p, out);
    fclose(out);
    assert_string_equal(text,
                        "[main tid=100];demo/Main.main_[0];demo/Main.work_[i];demo/Main.spin_[j] 30\n"
                        "[worker-os tid=101];demo/Main.main_[0];java/lang/Thread.sleep_[j] 200\n"
                        "[main tid=100];demo/Main.main_[0];[unknown_Java];deflate;do_syscall_64_[k] 1\n"
                        "[main tid=100];[truncated];demo/Main.spin_[j] 1\n");
    assert_int_equal(p.types[profile_intern(&p, "deflate", FTYPE_NATIVE)], FTYPE_NATIVE);
    assert_int_equal(p.types[profile_intern(&p, "[unknown_Java]", FTYPE_NATIVE)], FTYPE_MARKER);
    assert_int_equal(st.chunks, 1);
    assert_int_equal(st.samples, 7);
    free(text);
    profile_free(&p);
    free(b.data);
}

/* async-profiler's batched wall samples count as the samples they stand for. */
static void test_wall_clock_batches(void **state) {
    (void)state;
    synth_wall_batches = true;
    synth_buf b = synth_chunk();
    synth_wall_batches = false;
    jfr_convert_options o;
    jfr_convert_options_init(&o);
    assert_converts_to(&o, &b,
                       "demo/Main.main;demo/Main.work;demo/Main.spin 3\n"
                       "demo/Main.main;java/lang/Thread.sleep 12\n"
                       "demo/Main.main;[unknown_Java];deflate;do_syscall_64 1\n"
                       "[truncated];demo/Main.spin 1\n");
    o.wall_only = true;   /* without STATE_DEFAULT in the chunk, every state is wall */
    assert_converts_to(&o, &b,
                       "demo/Main.main;demo/Main.work;demo/Main.spin 3\n"
                       "demo/Main.main;java/lang/Thread.sleep 12\n"
                       "demo/Main.main;[unknown_Java];deflate;do_syscall_64 1\n"
                       "[truncated];demo/Main.spin 1\n");
    o.wall_only = false;
    o.cpu_only = true;    /* jdk.ExecutionSample only */
    assert_converts_to(&o, &b,
                       "demo/Main.main;demo/Main.work;demo/Main.spin 3\n"
                       "demo/Main.main;java/lang/Thread.sleep 2\n"
                       "demo/Main.main;[unknown_Java];deflate;do_syscall_64 1\n"
                       "[truncated];demo/Main.spin 1\n");
    free(b.data);
}

static void test_filters(void **state) {
    (void)state;
    synth_buf b = synth_chunk();
    jfr_convert_options o;
    char err[256];
    jfr_convert_options_init(&o);
    assert_int_equal(jfr_convert_add_states(&o, "sleeping", err, sizeof(err)), 0);
    assert_converts_to(&o, &b, "demo/Main.main;java/lang/Thread.sleep 2\n");
    jfr_convert_options_init(&o);
    assert_int_equal(jfr_convert_add_states(&o, "STATE_RUNNABLE,x", err, sizeof(err)), 0);
    assert_converts_to(&o, &b,
                       "demo/Main.main;demo/Main.work;demo/Main.spin 3\n"
                       "demo/Main.main;[unknown_Java];deflate;do_syscall_64 1\n"
                       "[truncated];demo/Main.spin 1\n");
    /* The agent's patterns and regular expressions, on whole frame names. */
    jfr_convert_options_init(&o);
    jfr_convert_add_filter(&o, true, "*spin", err, sizeof(err));
    jfr_convert_add_filter(&o, false, "\\[trunc.*", err, sizeof(err));
    assert_converts_to(&o, &b, "demo/Main.main;demo/Main.work;demo/Main.spin 3\n");
    jfr_convert_options_free(&o);
    jfr_convert_options_init(&o);
    jfr_convert_add_filter(&o, false, "java/lang/.*|deflate", err, sizeof(err));
    jfr_convert_add_filter(&o, false, "[truncated]", err, sizeof(err));   /* an agent pattern: exact name */
    assert_converts_to(&o, &b, "demo/Main.main;demo/Main.work;demo/Main.spin 3\n");
    jfr_convert_options_free(&o);
    /* Time range: samples at +0, +1, +2, +3, +4, +5, +5 ms; [+2 ms, +4 ms] keeps three of them. */
    jfr_convert_options_init(&o);
    o.from_ns = SYNTH_START_NS + 2000000;
    o.to_ns = SYNTH_START_NS + 4000000;
    assert_converts_to(&o, &b,
                       "demo/Main.main;demo/Main.work;demo/Main.spin 1\n"
                       "demo/Main.main;java/lang/Thread.sleep 1\n"
                       "demo/Main.main;[unknown_Java];deflate;do_syscall_64 1\n");
    /* Leaf first, and dotted / simple names. */
    jfr_convert_options_init(&o);
    o.reverse_stacks = true;
    o.style.simple = true;
    assert_converts_to(&o, &b,
                       "Main.spin;Main.work;Main.main 3\n"
                       "Thread.sleep;Main.main 2\n"
                       "do_syscall_64;deflate;[unknown_Java];Main.main 1\n"
                       "Main.spin;[truncated] 1\n");
    /* Bad state lists are refused with the list in the message. */
    assert_int_equal(jfr_convert_add_states(&o, "RUNNABLE,,", err, sizeof(err)), -1);
    assert_non_null(strstr(err, "RUNNABLE,,"));
    free(b.data);
}

/* Class names in dotted form become the agent's internal form; a hidden class's address suffix after its
 * slash ("Pattern$$Lambda/0x800000027", as JDK 25 writes it) is kept. */
static void test_dotted_and_hidden_class_names(void **state) {
    (void)state;
    synth_buf b = synth_chunk();
    uint8_t *at = memmem(b.data, b.len, "demo/Main", 9);
    assert_non_null(at);
    memcpy(at, "a.b.C/0.x", 9);
    jfr_convert_options o;
    jfr_convert_options_init(&o);
    assert_converts_to(&o, &b,
                       "a/b/C/0.x.main;a/b/C/0.x.work;a/b/C/0.x.spin 3\n"
                       "a/b/C/0.x.main;java/lang/Thread.sleep 2\n"
                       "a/b/C/0.x.main;[unknown_Java];deflate;do_syscall_64 1\n"
                       "[truncated];a/b/C/0.x.spin 1\n");
    free(b.data);
}

static void test_two_chunks_add_up(void **state) {
    (void)state;
    synth_buf b = synth_chunk();
    synth_buf again = synth_chunk();
    synth_bytes(&b, again.data, again.len);
    free(again.data);
    jfr_convert_options o;
    jfr_convert_options_init(&o);
    assert_converts_to(&o, &b,
                       "demo/Main.main;demo/Main.work;demo/Main.spin 6\n"
                       "demo/Main.main;java/lang/Thread.sleep 4\n"
                       "demo/Main.main;[unknown_Java];deflate;do_syscall_64 2\n"
                       "[truncated];demo/Main.spin 2\n");
    uint64_t start, end;
    jfr_error e = {0};
    assert_int_equal(jfr_convert_span(b.data, b.len, &start, &end, &e), 0);
    assert_true(start == SYNTH_START_NS);
    assert_true(end == SYNTH_START_NS + 6000000);
    free(b.data);
}

/* Every prefix of a valid file: an error naming an offset, never a crash. With the chunk size patched to
 * the prefix, the reader gets past the header and meets the cut inside the metadata, pools or events. */
static void test_truncated_at_every_byte(void **state) {
    (void)state;
    synth_buf b = synth_chunk();
    jfr_convert_options o;
    jfr_convert_options_init(&o);
    o.threads = true;
    int deeper_errors = 0;
    for (size_t n = 0; n < b.len; n++) {
        uint8_t *copy = malloc(n ? n : 1);
        memcpy(copy, b.data, n);
        jfr_error e;
        char *text = convert(&o, copy, n, &e);
        if (text) fail_msg("a file cut to %zu of %zu bytes was accepted", n, b.len);
        assert_true(e.failed && e.message[0]);
        if (n >= JFR_RHEADER_SIZE) {
            for (int i = 0; i < 8; i++) copy[8 + i] = (uint8_t)((uint64_t)n >> (56 - 8 * i));
            text = convert(&o, copy, n, &e);
            if (!text) {
                assert_non_null(strstr(e.message, "offset"));
                deeper_errors++;
            }
            free(text);   /* a cut between two events leaves a valid, shorter chunk */
        }
        free(copy);
    }
    assert_true(deeper_errors > (int)b.len / 2);
    free(b.data);
}

/* Every byte changed: whatever the reader makes of it, it returns (the sanitizer build checks memory). */
static void test_corrupt_every_byte(void **state) {
    (void)state;
    synth_buf b = synth_chunk();
    jfr_convert_options o;
    jfr_convert_options_init(&o);
    o.threads = true;
    int errors = 0;
    for (size_t i = 0; i < b.len; i++) {
        const uint8_t values[] = {0x00, 0xff, 0x80, (uint8_t)(b.data[i] + 1)};
        for (size_t v = 0; v < sizeof(values); v++) {
            uint8_t saved = b.data[i];
            b.data[i] = values[v];
            jfr_error e;
            char *text = convert(&o, b.data, b.len, &e);
            if (!text) {
                errors++;
                assert_true(e.message[0] != 0);
            }
            free(text);
            b.data[i] = saved;
        }
    }
    assert_true(errors > 0);
    free(b.data);
}

static void test_foreign_files(void **state) {
    (void)state;
    jfr_convert_options o;
    jfr_convert_options_init(&o);
    jfr_error e;
    const char *text = "hello, this is not a recording at all; it is long enough to hold a chunk header........";
    assert_null(convert(&o, (const uint8_t *)text, strlen(text), &e));
    assert_non_null(strstr(e.message, "not a JFR chunk"));
    assert_non_null(strstr(e.message, "chunk 1 (at offset 0)"));
    const uint8_t class_file[80] = {0xca, 0xfe, 0xba, 0xbe};
    assert_null(convert(&o, class_file, sizeof(class_file), &e));
    assert_non_null(strstr(e.message, "ca fe ba be"));
    assert_null(convert(&o, class_file, 0, &e));
    assert_non_null(strstr(e.message, "empty"));
    /* A second chunk that is garbage: the error names chunk 2 and where it starts. */
    synth_buf b = synth_chunk();
    size_t one = b.len;
    synth_bytes(&b, text, strlen(text));
    assert_null(convert(&o, b.data, b.len, &e));
    char where[64];
    snprintf(where, sizeof(where), "chunk 2 (at offset %zu)", one);
    assert_non_null(strstr(e.message, where));
    free(b.data);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_varints),
        cmocka_unit_test(test_strings_of_every_tag),
        cmocka_unit_test(test_synthetic_chunk),
        cmocka_unit_test(test_wall_clock_batches),
        cmocka_unit_test(test_filters),
        cmocka_unit_test(test_dotted_and_hidden_class_names),
        cmocka_unit_test(test_two_chunks_add_up),
        cmocka_unit_test(test_truncated_at_every_byte),
        cmocka_unit_test(test_corrupt_every_byte),
        cmocka_unit_test(test_foreign_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
