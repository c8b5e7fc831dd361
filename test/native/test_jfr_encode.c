/* Unit tests of the JFR encoding: varints, strings, event framing, the chunk header, checkpoints, events
 * and the metadata event (parsed back: every type it refers to is declared, fields in the JDK's order). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jfr_chunk.h"
#include "jfr_buf.h"
#include "jfr_event.h"
#include "jfr_metadata.h"
#include "jfr_types.h"
#include "thread_state.h"

static void assert_bytes(const jfr_buf *b, const uint8_t *want, size_t n) {
    assert_int_equal(b->len, n);
    assert_memory_equal(b->data, want, n);
}

static void test_varints(void **state) {
    (void)state;
    struct { uint64_t v; uint8_t bytes[9]; size_t n; } cases[] = {
        {0, {0x00}, 1},
        {1, {0x01}, 1},
        {127, {0x7f}, 1},
        {128, {0x80, 0x01}, 2},
        {300, {0xac, 0x02}, 2},
        {16383, {0xff, 0x7f}, 2},
        {16384, {0x80, 0x80, 0x01}, 3},
        {UINT64_MAX, {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, 9},
        {(uint64_t)1 << 56, {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}, 9},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        jfr_buf b;
        jfr_buf_init(&b);
        jfr_buf_put_varint(&b, cases[i].v);
        assert_bytes(&b, cases[i].bytes, cases[i].n);
        assert_int_equal(jfr_varint_len(cases[i].v), cases[i].n);
        jfr_buf_free(&b);
    }
    /* Round trips, negative ints (two's complement) included. */
    uint64_t values[] = {0, 1, 63, 64, 127, 128, 255, 256, 1u << 20, (1ULL << 35) - 1, 1ULL << 35, (1ULL << 56) - 1,
                         1ULL << 63, (uint64_t)-1, (uint64_t)(int64_t)-3, (uint64_t)(int64_t)INT32_MIN};
    for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
        jfr_buf b;
        jfr_buf_init(&b);
        jfr_buf_put_varint(&b, values[i]);
        uint64_t back = 0;
        assert_int_equal(jfr_get_varint(b.data, b.len, &back), b.len);
        assert_true(back == values[i]);
        assert_int_equal(jfr_get_varint(b.data, b.len - 1, &back), 0);   /* cut short */
        jfr_buf_free(&b);
    }
}

static void test_fixed_width_and_patching(void **state) {
    (void)state;
    jfr_buf b;
    jfr_buf_init(&b);
    jfr_buf_put_varint5(&b, 0);
    assert_bytes(&b, (const uint8_t[]){0x80, 0x80, 0x80, 0x80, 0x00}, 5);
    jfr_patch_varint5(&b, 0, (1ULL << 35) - 1);
    uint64_t v;
    assert_int_equal(jfr_get_varint(b.data, b.len, &v), 5);
    assert_true(v == (1ULL << 35) - 1);
    jfr_patch_varint5(&b, 0, 300);
    assert_int_equal(jfr_get_varint(b.data, b.len, &v), 5);
    assert_int_equal(v, 300);
    jfr_buf_clear(&b);
    jfr_buf_put_be16(&b, 0x0102);
    jfr_buf_put_be32(&b, 0x03040506);
    jfr_buf_put_be64(&b, 0x0708090a0b0c0d0eULL);
    jfr_buf_put_float(&b, 1.0f);
    assert_bytes(&b, (const uint8_t[]){1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0x3f, 0x80, 0, 0}, 18);
    jfr_patch_be64(&b, 6, 0x1122334455667788ULL);
    assert_memory_equal(b.data + 6, ((const uint8_t[]){0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88}), 8);
    jfr_buf_free(&b);
}

static void test_strings(void **state) {
    (void)state;
    jfr_buf b;
    jfr_buf_init(&b);
    jfr_buf_put_string(&b, NULL);
    jfr_buf_put_string(&b, "");
    jfr_buf_put_string(&b, "abc");
    jfr_buf_put_string(&b, "\xc3\xa9t\xc3\xa9");   /* the length counts bytes, not characters */
    assert_bytes(&b, (const uint8_t[]){0, 1, 3, 3, 'a', 'b', 'c', 3, 5, 0xc3, 0xa9, 't', 0xc3, 0xa9}, 14);
    jfr_buf_free(&b);
    /* The symbol pool's form: UTF-8 always, the empty string as length 0 (async-profiler's converter). */
    jfr_buf_init(&b);
    jfr_buf_put_utf8(&b, "");
    jfr_buf_put_utf8(&b, "ab");
    assert_bytes(&b, (const uint8_t[]){3, 0, 3, 2, 'a', 'b'}, 6);
    jfr_buf_free(&b);
}

/* Reads varints from a cursor, failing the test when the input ends. */
typedef struct {
    const uint8_t *p;
    size_t at, len;
} cursor;

static uint64_t next(cursor *c) {
    uint64_t v;
    size_t n = jfr_get_varint(c->p + c->at, c->len - c->at, &v);
    if (!n) fail_msg("varint past the end at %zu", c->at);
    c->at += n;
    return v;
}

static uint8_t next_byte(cursor *c) {
    if (c->at >= c->len) fail_msg("byte past the end");
    return c->p[c->at++];
}

/* A tagged string; returns a pointer into a static buffer (tests use one at a time). */
static const char *next_string(cursor *c) {
    static char s[4096];
    uint8_t tag = next_byte(c);
    if (tag == 0) return NULL;
    if (tag == 1) return "";
    assert_int_equal(tag, 3);
    uint64_t n = next(c);
    assert_true(n < sizeof(s) && c->at + n <= c->len);
    memcpy(s, c->p + c->at, n);
    s[n] = 0;
    c->at += n;
    return s;
}

static void test_event_framing(void **state) {
    (void)state;
    jfr_buf b;
    jfr_buf_init(&b);
    jfr_buf_put_u8(&b, 0xee);   /* something before: sizes are relative to the event's own start */
    jfr_event_execution_sample(&b, 123456789012ULL, ((uint64_t)2 << 32) | 4242, 77, THREAD_STATE_SLEEPING);
    cursor c = {b.data, 1, b.len};
    assert_int_equal(next(&c), b.len - 1);   /* the size includes the size field */
    assert_int_equal(next(&c), JFR_EXECUTION_SAMPLE);
    assert_true(next(&c) == 123456789012ULL);
    assert_true(next(&c) == (((uint64_t)2 << 32) | 4242));
    assert_int_equal(next(&c), 77);
    assert_int_equal(next(&c), THREAD_STATE_SLEEPING + 1);
    assert_int_equal(c.at, b.len);

    jfr_buf_clear(&b);
    jfr_event_active_setting(&b, 5, JFR_EXECUTION_SAMPLE, "interval", "1 ms");
    c = (cursor){b.data, 0, b.len};
    assert_int_equal(next(&c), b.len);
    assert_int_equal(next(&c), JFR_ACTIVE_SETTING);
    assert_int_equal(next(&c), 5);   /* startTime */
    assert_int_equal(next(&c), 0);   /* duration */
    assert_int_equal(next(&c), 0);   /* eventThread */
    assert_int_equal(next(&c), 0);   /* stackTrace */
    assert_int_equal(next(&c), JFR_EXECUTION_SAMPLE);
    assert_string_equal(next_string(&c), "interval");
    assert_string_equal(next_string(&c), "1 ms");
    assert_int_equal(c.at, b.len);

    jfr_buf_clear(&b);
    jfr_event_cpu_load(&b, 9, 0.5f, 0.25f, 1.0f);
    c = (cursor){b.data, 0, b.len};
    assert_int_equal(next(&c), b.len);
    assert_int_equal(next(&c), JFR_CPU_LOAD);
    assert_int_equal(next(&c), 9);
    assert_memory_equal(b.data + c.at, ((const uint8_t[]){0x3f, 0, 0, 0, 0x3e, 0x80, 0, 0, 0x3f, 0x80, 0, 0}), 12);
    assert_int_equal(c.at + 12, b.len);
    jfr_buf_free(&b);
}

static uint64_t be64(const uint8_t *p) {
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v = v << 8 | p[i];
    return v;
}

static void test_chunk_header(void **state) {
    (void)state;
    jfr_chunk_header h = {1000, 700, 800, 1700000000000000000ULL, 5000000000ULL, 42, 1000000000ULL, true};
    uint8_t out[JFR_HEADER_SIZE];
    jfr_chunk_header_encode(&h, out);
    assert_memory_equal(out, ((const uint8_t[]){'F', 'L', 'R', 0, 0, 2, 0, 0}), 8);
    assert_int_equal(be64(out + 8), 1000);
    assert_int_equal(be64(out + 16), 700);
    assert_int_equal(be64(out + 24), 800);
    assert_true(be64(out + 32) == 1700000000000000000ULL);
    assert_true(be64(out + 40) == 5000000000ULL);
    assert_int_equal(be64(out + 48), 42);
    assert_int_equal(be64(out + 56), 1000000000);
    assert_memory_equal(out + 64, ((const uint8_t[]){0, 0, 0, 1}), 4);   /* finished, compressed integers */
    h.finished = false;
    jfr_chunk_header_encode(&h, out);
    assert_int_equal(out[64], 255);   /* being written */
    assert_int_equal(out[67], 1);
}

static void test_checkpoint(void **state) {
    (void)state;
    jfr_buf b;
    jfr_buf_init(&b);
    jfr_checkpoint c;
    jfr_chunk_checkpoint_begin(&b, &c, 99);
    jfr_chunk_pool_begin(&b, &c, JFR_THREAD);
    jfr_chunk_pool_end(&b, &c, 0);   /* empty: removed, readers refuse empty pools */
    jfr_chunk_pool_begin(&b, &c, JFR_THREAD_STATE);
    jfr_buf_put_varint(&b, 1);
    jfr_buf_put_string(&b, "STATE_RUNNABLE");
    jfr_buf_put_varint(&b, 2);
    jfr_buf_put_string(&b, "STATE_SLEEPING");
    jfr_chunk_pool_end(&b, &c, 2);
    jfr_chunk_checkpoint_end(&b, &c);
    cursor k = {b.data, 0, b.len};
    assert_int_equal(next(&k), b.len);
    assert_int_equal(next(&k), JFR_CHECKPOINT);
    assert_int_equal(next(&k), 99);   /* startTime */
    assert_int_equal(next(&k), 0);    /* duration */
    assert_int_equal(next(&k), 0);    /* delta to the previous checkpoint */
    assert_int_equal(next_byte(&k), 1);
    assert_int_equal(next(&k), 1);    /* one pool: the empty one is gone */
    assert_int_equal(next(&k), JFR_THREAD_STATE);
    assert_int_equal(next(&k), 2);
    assert_int_equal(next(&k), 1);
    assert_string_equal(next_string(&k), "STATE_RUNNABLE");
    assert_int_equal(next(&k), 2);
    assert_string_equal(next_string(&k), "STATE_SLEEPING");
    assert_int_equal(k.at, b.len);
    jfr_buf_free(&b);
}

/* ---- the metadata event, parsed back ---------------------------------------------------------------- */

typedef struct {
    char **strings;
    uint64_t string_count;
    uint64_t declared[256], referenced[256];
    int declared_count, referenced_count;
    char fields[64][512];   /* "class: field field ..." per class */
    int class_count;
    bool symbol_simple;
} metadata;

static const char *str(metadata *m, uint64_t i) {
    if (i >= m->string_count) fail_msg("string index %llu out of range", (unsigned long long)i);
    return m->strings[i] ? m->strings[i] : "";
}

static void element(metadata *m, cursor *c, int depth, const char *parent) {
    assert_true(depth < 8);
    const char *name = str(m, next(c));
    uint64_t attrs = next(c);
    const char *attr_name = NULL, *attr_id = NULL, *attr_class = NULL, *attr_simple = NULL;
    for (uint64_t i = 0; i < attrs; i++) {
        const char *k = str(m, next(c)), *v = str(m, next(c));
        if (strcmp(k, "name") == 0) attr_name = v;
        if (strcmp(k, "id") == 0) attr_id = v;
        if (strcmp(k, "class") == 0) attr_class = v;
        if (strcmp(k, "simpleType") == 0) attr_simple = v;
    }
    if (strcmp(name, "class") == 0) {
        assert_non_null(attr_name);
        assert_non_null(attr_id);
        m->declared[m->declared_count++] = strtoull(attr_id, NULL, 10);
        if (strcmp(attr_name, "jdk.types.Symbol") == 0) m->symbol_simple = attr_simple && strcmp(attr_simple, "true") == 0;
        snprintf(m->fields[m->class_count++], sizeof(m->fields[0]), "%s:", attr_name);
        parent = attr_name;
    } else if (strcmp(name, "field") == 0 || strcmp(name, "annotation") == 0) {
        assert_non_null(attr_class);
        m->referenced[m->referenced_count++] = strtoull(attr_class, NULL, 10);
        if (strcmp(name, "field") == 0 && parent && m->class_count) {
            char *line = m->fields[m->class_count - 1];
            size_t used = strlen(line);
            snprintf(line + used, sizeof(m->fields[0]) - used, " %s", attr_name);
        }
    }
    uint64_t children = next(c);
    for (uint64_t i = 0; i < children; i++) element(m, c, depth + 1, parent);
}

static bool has_fields(const metadata *m, const char *line) {
    for (int i = 0; i < m->class_count; i++) {
        if (strcmp(m->fields[i], line) == 0) return true;
    }
    return false;
}

static void test_metadata(void **state) {
    (void)state;
    jfr_buf b;
    jfr_buf_init(&b);
    jfr_metadata_write(&b, 1234, 7);
    assert_false(b.failed);
    cursor c = {b.data, 0, b.len};
    assert_int_equal(next(&c), b.len);
    assert_int_equal(next(&c), JFR_METADATA);
    assert_int_equal(next(&c), 1234);
    assert_int_equal(next(&c), 0);
    assert_int_equal(next(&c), 7);
    metadata m;
    memset(&m, 0, sizeof(m));
    m.string_count = next(&c);
    m.strings = calloc(m.string_count, sizeof(char *));
    for (uint64_t i = 0; i < m.string_count; i++) {
        const char *s = next_string(&c);
        m.strings[i] = s ? strdup(s) : NULL;
    }
    assert_string_equal(str(&m, next(&c)), "root");
    assert_int_equal(next(&c), 0);   /* root attributes */
    assert_int_equal(next(&c), 2);   /* metadata and region */
    element(&m, &c, 1, NULL);
    element(&m, &c, 1, NULL);
    assert_int_equal(c.at, b.len);

    for (int i = 0; i < m.referenced_count; i++) {
        bool found = false;
        for (int k = 0; k < m.declared_count; k++) found = found || m.declared[k] == m.referenced[i];
        if (!found) fail_msg("type id %llu is used but not declared", (unsigned long long)m.referenced[i]);
    }
    assert_true(m.symbol_simple);
    /* The JDK's field order, which positional readers rely on. */
    assert_true(has_fields(&m, "jdk.ExecutionSample: startTime sampledThread stackTrace state"));
    assert_true(has_fields(&m, "java.lang.Thread: osName osThreadId javaName javaThreadId group"));
    assert_true(has_fields(&m, "java.lang.Class: classLoader name package modifiers hidden"));
    assert_true(has_fields(&m, "jdk.types.Method: type name descriptor modifiers hidden"));
    assert_true(has_fields(&m, "jdk.types.StackTrace: truncated frames"));
    assert_true(has_fields(&m, "jdk.types.StackFrame: method lineNumber bytecodeIndex type"));
    assert_true(has_fields(&m, "jdk.ActiveSetting: startTime duration eventThread stackTrace id name value"));
    assert_true(has_fields(&m, "jdk.CPULoad: startTime jvmUser jvmSystem machineTotal"));
    for (uint64_t i = 0; i < m.string_count; i++) free(m.strings[i]);
    free(m.strings);
    jfr_buf_free(&b);
}

static void test_frame_types(void **state) {
    (void)state;
    assert_string_equal(jfr_frame_type_name(JFR_FRAME_JIT), "JIT compiled");
    assert_string_equal(jfr_frame_type_name(JFR_FRAME_CPP), "C++");
    assert_string_equal(jfr_frame_type_name(JFR_FRAME_KERNEL), "Kernel");
    assert_string_equal(jfr_frame_type_name(JFR_FRAME_INTERPRETED), "Interpreted");
    assert_int_equal(JFR_FRAME_INTERPRETED, 0);   /* async-profiler's converter indexes by key */
    assert_int_equal(JFR_FRAME_C1, 6);
    assert_null(jfr_frame_type_name(-1));
    assert_null(jfr_frame_type_name(JFR_FRAME_TYPE_COUNT));
    assert_true(jfr_frame_type_is_java(JFR_FRAME_INLINED));
    assert_false(jfr_frame_type_is_java(JFR_FRAME_NATIVE));
    assert_true(JFR_FRAME_TYPE_COUNT < 128);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_varints),       cmocka_unit_test(test_fixed_width_and_patching),
        cmocka_unit_test(test_strings),       cmocka_unit_test(test_event_framing),
        cmocka_unit_test(test_chunk_header),  cmocka_unit_test(test_checkpoint),
        cmocka_unit_test(test_metadata),      cmocka_unit_test(test_frame_types),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
