/*
 * Unit tests of the class file rewriter on real classes compiled at build time (the behaviour suite, a
 * module) and the fuzz corpus seeds (seed-*.class, among them javac 25 output with CONSTANT_Dynamic):
 *     test_classfile_real DIR...
 * Every class is rewritten with all methods selected and its output must parse again and rewrite again
 * reusing the helper's pool entries; every class truncated at every length, and corrupted byte by byte,
 * must be refused or handled without a crash (run under ASan by ./build.sh asan); the pool tags the
 * format defines must all have been met.
 */
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <ftw.h>
#include <stdio.h>

#include "classfile_builder.h"

#define HELPER "libprof/Helper"

typedef struct {
    char path[512];
    uint8_t *data;
    size_t len;
} real_class;

static real_class classes[256];
static int n_classes;

static int collect(const char *path, const struct stat *st, int type, struct FTW *ftw) {
    (void)ftw;
    size_t n = strlen(path);
    if (type != FTW_F || n < 6 || strcmp(path + n - 6, ".class") != 0 || n_classes == 256) return 0;
    const char *base = strrchr(path, '/');
    if (strstr(path, "/corpus/") && strncmp(base ? base + 1 : path, "seed-", 5) != 0) return 0;
    real_class *c = &classes[n_classes];
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    c->data = malloc((size_t)st->st_size + 1);
    c->len = fread(c->data, 1, (size_t)st->st_size, f);
    fclose(f);
    snprintf(c->path, sizeof(c->path), "%s", path);
    n_classes++;
    return 0;
}

static bool is_refused_on_purpose(const real_class *c) {
    return strstr(c->path, "/LimitTooLong.class") != NULL;
}

/* Rewritten once and again: the second time reuses every pool entry and grows each method by 4 bytes. */
static void test_rewrite_twice(void **state) {
    (void)state;
    int rewritten_classes = 0;
    for (int i = 0; i < n_classes; i++) {
        real_class *c = &classes[i];
        uint8_t *out = NULL, *out2 = NULL, *none = NULL;
        size_t out_len, out2_len, none_len;
        int methods = 0, methods2 = 0;
        char why[512];
        classfile_result r = classfile_instrument(c->data, c->len, HELPER, "hit", t_select_all, NULL, &out, &out_len,
                                                  &methods, why, sizeof(why));
        if (is_refused_on_purpose(c)) {
            assert_int_equal(r, CLASSFILE_REFUSED);
            assert_non_null(strstr(why, "code too long: 65532 bytes"));
            continue;
        }
        if (r == CLASSFILE_REFUSED) fail_msg("%s refused: %s", c->path, why);
        if (r == CLASSFILE_UNCHANGED) continue;  /* no method with code (interfaces, module-info) */
        rewritten_classes++;
        assert_int_equal(classfile_instrument(out, out_len, HELPER, "hit", t_select_none, NULL, &none, &none_len,
                                              NULL, why, sizeof(why)), CLASSFILE_UNCHANGED);
        r = classfile_instrument(out, out_len, HELPER, "hit", t_select_all, NULL, &out2, &out2_len, &methods2, why,
                                 sizeof(why));
        if (r == CLASSFILE_REFUSED && strstr(c->path, "/LimitOk.class")) {  /* 65535 + 4 */
            assert_non_null(strstr(why, "code too long: 65535 bytes"));
        } else {
            if (r != CLASSFILE_REWRITTEN) fail_msg("%s: rewritten output not rewritten again: %s", c->path, why);
            assert_int_equal(methods2, methods);
            assert_int_equal(classfile_u2(out2 + 8), classfile_u2(out + 8));  /* the helper's entries reused */
            assert_true(out2_len >= out_len + 4u * methods);
        }
        free(out);
        free(out2);
    }
    assert_true(rewritten_classes >= 10);
}

/* Every prefix of every class is refused with a reason. Long classes are cut at a stride. */
static void test_truncated_everywhere(void **state) {
    (void)state;
    long cuts = 0;
    for (int i = 0; i < n_classes; i++) {
        real_class *c = &classes[i];
        size_t step = c->len > 16384 ? c->len / 400 + 1 : 1;  /* the 40-110 KiB ones: about 400 cuts each */
        for (size_t len = 0; len < c->len; len += step) {
            uint8_t *copy = malloc(len + 1);  /* exactly len bytes readable (ASan checks) */
            memcpy(copy, c->data, len);
            uint8_t *out = NULL;
            size_t out_len;
            char why[512] = "";
            classfile_result r = classfile_instrument(copy, len, HELPER, "hit", t_select_all, NULL, &out, &out_len,
                                                      NULL, why, sizeof(why));
            if (r != CLASSFILE_REFUSED || why[0] == 0)
                fail_msg("%s cut at %zu of %zu: result %d, reason '%s'", c->path, len, c->len, r, why);
            assert_null(out);
            free(copy);
            cuts++;
        }
    }
    assert_true(cuts > 10000);
}

/* Each byte of each small class set to 0x00, 0xff, 0x80 and its successor: any result, but no crash or
 * leak, and a REWRITTEN output must parse again. */
static void test_corrupted_bytes(void **state) {
    (void)state;
    static const uint8_t values[] = {0x00, 0xff, 0x80};
    for (int i = 0; i < n_classes; i++) {
        real_class *c = &classes[i];
        if (c->len > 4096) continue;
        uint8_t *copy = malloc(c->len);
        for (size_t pos = 0; pos < c->len; pos++) {
            for (size_t v = 0; v <= sizeof(values); v++) {
                memcpy(copy, c->data, c->len);
                copy[pos] = v < sizeof(values) ? values[v] : (uint8_t)(c->data[pos] + 1);
                uint8_t *out = NULL, *none = NULL;
                size_t out_len, none_len;
                char why[512];
                if (classfile_instrument(copy, c->len, HELPER, "hit", t_select_all, NULL, &out, &out_len, NULL, why,
                                         sizeof(why)) == CLASSFILE_REWRITTEN &&
                    classfile_instrument(out, out_len, HELPER, "hit", t_select_none, NULL, &none, &none_len, NULL, why,
                                         sizeof(why)) != CLASSFILE_UNCHANGED)
                    fail_msg("%s with byte %zu changed: output does not parse: %s", c->path, pos, why);
                free(out);
            }
        }
        free(copy);
    }
}

/* The constant pool tags the format defines were all met in real classes (and so parsed and copied). */
static void test_every_tag_met(void **state) {
    (void)state;
    bool seen[21] = {0};
    for (int i = 0; i < n_classes; i++) {
        classfile_pool pool;
        char why[256];
        classfile_err err = {why, sizeof(why)};
        if (!classfile_pool_parse(&pool,
            classes[i].data, classes[i].len, &err)) fail_msg("%s: %s", classes[i].path, why);
        for (uint32_t k = 1; k < pool.count; k++) seen[pool.tags[k]] = true;
        classfile_pool_free(&pool);
    }
    static const int tags[] = {CP_UTF8, CP_INTEGER, CP_FLOAT, CP_LONG, CP_DOUBLE, CP_CLASS, CP_STRING, CP_FIELDREF,
                               CP_METHODREF, CP_INTERFACE_METHODREF, CP_NAME_AND_TYPE, CP_METHOD_HANDLE,
                               CP_METHOD_TYPE, CP_DYNAMIC, CP_INVOKE_DYNAMIC, CP_MODULE, CP_PACKAGE};
    for (size_t i = 0; i < sizeof(tags) / sizeof(tags[0]); i++)
        if (!seen[tags[i]]) fail_msg("no real class with constant pool tag %d", tags[i]);
}

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) nftw(argv[i], collect, 16, FTW_PHYS);
    if (n_classes < 10) {
        fprintf(stderr, "test_classfile_real: only %d classes found under the directories given\n", n_classes);
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rewrite_twice),
        cmocka_unit_test(test_truncated_everywhere),
        cmocka_unit_test(test_corrupted_bytes),
        cmocka_unit_test(test_every_tag_met),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    for (int i = 0; i < n_classes; i++) free(classes[i].data);
    return rc;
}
