/* Unit tests of the HTML writer: the data section, decoded here as the page decodes it, is the right tree. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>

#include "out_html.h"
#include "synthetic.h"

static char *render_html(const profile *p, const out_html_options *opt) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_int_equal(out_html_write(p, f, opt), 0);
    fclose(f);
    return buf;
}

/* The JSON string value of "key" in the data section (no escapes expected in the fields decoded here). */
static char *field(const char *page, const char *key) {
    char pattern[64];
    snprintf(pattern, sizeof(pattern), "\"%s\":\"", key);
    const char *start = strstr(page, pattern);
    assert_non_null(start);
    start += strlen(pattern);
    const char *end = strchr(start, '"');
    return strndup(start, (size_t)(end - start));
}

/* The i-th name of the "names" array, unescaped only for the plain names used here. */
static char *name_at(const char *page, unsigned i) {
    const char *s = strstr(page, "\"names\":[");
    assert_non_null(s);
    s += strlen("\"names\":[");
    for (unsigned k = 0; k < i; k++) s = strstr(s, "\",\n\"") + 3;
    const char *end = strchr(s + 1, '"');
    return strndup(s + 1, (size_t)(end - s - 1));
}

/* Decodes the preorder triples back into "path value" lines, one per node, into 'out'. */
static void decode(const char *page, char *out, size_t cap) {
    char *tree = field(page, "tree");
    char *save = NULL;
    char *tok = strtok_r(tree, ",", &save);
    unsigned long remaining[64];
    char path[64][64];
    int depth = 0;
    remaining[0] = strtoul(tok, NULL, 36);
    out[0] = 0;
    while (depth >= 0) {
        if (remaining[depth] == 0) { depth--; continue; }
        remaining[depth]--;
        unsigned name = (unsigned)strtoul(strtok_r(NULL, ",", &save), NULL, 36);
        unsigned long total = strtoul(strtok_r(NULL, ",", &save), NULL, 36);
        unsigned long kids = strtoul(strtok_r(NULL, ",", &save), NULL, 36);
        char *n = name_at(page, name);
        snprintf(path[depth + 1], sizeof(path[0]), "%s%s%s", depth ? path[depth] : "", depth ? ";" : "", n);
        free(n);
        snprintf(out + strlen(out), cap - strlen(out), "%s %lu\n", path[depth + 1], total);
        remaining[++depth] = kids;
    }
    assert_null(strtok_r(NULL, ",", &save));
    free(tree);
}

/* Decodes the frames written in async-profiler's layout (html_asprof_frames.h) as its converter reads them:
 * after the "const cpool" line and the root's, each quoted name is the previous name's first N characters
 * (N from ' ') and the rest, unescaped; then, after an empty line, f(name<<3|type,level,left,total) lines. One
 * "path total type" line per node into 'out', the root's as "all". */
static void decode_asprof(const char *page, char *out, size_t cap) {
    const char *s = strstr(page, "\nconst cpool = [\n'all'");
    assert_non_null(s);
    s = strchr(s + 1, '\n') + 1;
    s = strchr(s, '\n') + 1;   /* the root's line */
    static char names[64][128];
    int count = 1;
    strcpy(names[0], "all");
    while (*s == '\'') {
        const char *end = strchr(s, '\n');
        const char *close = end;
        while (close[-1] != '\'') close--;
        char packed[128], *w = packed;
        for (const char *c = s + 1; c < close - 1; c++) {
            if (*c == '\\' && (c[1] == '\\' || c[1] == '\'')) c++;
            *w++ = *c;
        }
        *w = 0;
        int prefix = packed[0] - ' ';
        /* ASCII names here: a character is a byte */
        snprintf(names[count], sizeof(names[0]), "%.*s%s", prefix, count > 1 ? names[count - 1] : "", packed + 1);
        count++;
        s = end + 1;
    }
    s = strstr(s, "\n\n") + 2;
    char path[64][512];
    out[0] = 0;
    while (*s == 'f') {
        unsigned key, level;
        unsigned long long left, total;
        assert_int_equal(sscanf(s, "f(%u,%u,%llu,%llu)", &key, &level, &left, &total), 4);
        const char *name = names[key >> 3];
        int n = level == 0 ? snprintf(path[0], sizeof(path[0]), "%s", name)
                           : snprintf(path[level], sizeof(path[0]), "%s%s%s", level > 1 ? path[level - 1] : "",
                                      level > 1 ? ";" : "", name);
        assert_true(n >= 0 && (size_t)n < sizeof(path[0]));   /* the test's stacks fit */
        snprintf(out + strlen(out), cap - strlen(out), "%s %llu %u\n", path[level], total, key & 7);
        s = strchr(s, '\n') + 1;
    }
    assert_true(*s == '\n');
}

/* Fails naming the first of 'needles' (NULL-terminated) that 'hay' lacks. */
static void assert_all_in(const char *hay, const char *const *needles) {
    for (; *needles; needles++)
        if (!strstr(hay, *needles)) fail_msg("missing '%s' in:\n%.2000s", *needles, hay);
}
#define ASSERT_ALL_IN(hay, ...) assert_all_in(hay, (const char *const[]){__VA_ARGS__, NULL})

static const out_html_options flame = {false, 0, false, false, NULL};

static void test_tree_decodes(void **state) {
    (void)state;
    profile p;
    synthetic_profile(&p);
    char *page = render_html(&p, &flame);
    char lines[1024];
    decode(page, lines, sizeof(lines));
    /* Each node once, its total the sum of the stacks through it; order is the writer's, so test by line. */
    ASSERT_ALL_IN(lines, "Main.main 100\n", "Main.main;Main.work 90\n", "Main.main;Main.work;Main.hot 60\n",
                  "Main.main;Main.work;Main.cold 30\n", "Main.main;Main.idle 10\n");
    int count = 0;
    for (char *c = lines; *c; c++) count += *c == '\n';
    assert_int_equal(count, 5);
    ASSERT_ALL_IN(page, "\"total\":100,", "\"units\":\"samples\"",
                  "\"view\":\"flame\",\"reverse\":false,\"inverted\":false", "</html>");
    /* Deduplicated names: each once, with one type character each. */
    char *types = field(page, "types");
    assert_int_equal(strlen(types), 5);
    assert_string_equal(types, "00000");
    free(types);
    assert_null(strstr(page, "@PROFILE_DATA@"));
    /* Self-contained: nothing in the page may point outside it. */
    for (const char *const *ref = (const char *const[]){"http:", "https:", "src=", "url(", "@import", NULL}; *ref; ref++)
        if (strstr(page, *ref)) fail_msg("the page refers outside itself: '%s'", *ref);
    free(page);
    profile_free(&p);
}

static void test_minwidth_total_and_flags(void **state) {
    (void)state;
    profile p;
    synthetic_profile(&p);
    p.meta.total = true;
    strcpy(p.meta.title, "Weights");
    out_html_options opt = {true, 15.0, true, true, NULL};
    char *page = render_html(&p, &opt);
    char lines[1024];
    decode(page, lines, sizeof(lines));
    /* idle is 10% of the total: under minwidth=15, so neither it nor its name is written. */
    assert_null(strstr(lines, "idle"));
    assert_null(strstr(page, "Main.idle"));
    ASSERT_ALL_IN(lines, "Main.main 1000\n", "Main.main;Main.work;Main.cold 300\n");
    ASSERT_ALL_IN(page, "\"units\":\"ns\"", "\"title\":\"Weights\"",
                  "\"view\":\"tree\",\"reverse\":true,\"inverted\":true");
    free(page);
    profile_free(&p);
}

static void test_names_cannot_break_the_page(void **state) {
    (void)state;
    profile p;
    profile_init(&p);
    synthetic_add(&p, "[main tid=1];evil</script><script>alert(1)</script>;quote\"back\\slash", 3, 3);
    char *page = render_html(&p, &flame);
    assert_null(strstr(page, "alert(1)</script>"));
    assert_non_null(strstr(page, "\"evil\\u003c/script\\u003e\\u003cscript\\u003ealert(1)\\u003c/script\\u003e\""));
    assert_non_null(strstr(page, "\"quote\\\"back\\\\slash\""));
    char *types = field(page, "types");
    assert_string_equal(types, "300");   /* marker (the '[' frame), then Java */
    free(types);
    free(page);
    profile_free(&p);
}

/* Control characters in names (a thread named "a\nb") stay inside their JSON string. */
static void test_control_characters_escaped(void **state) {
    (void)state;
    profile p;
    profile_init(&p);
    synthetic_add(&p, "[evil\nmain\r\x01 tid=7];Main.hot", 3, 3);
    char *page = render_html(&p, &flame);
    assert_non_null(strstr(page, "\"[evil\\u000amain\\u000d\\u0001 tid=7]\""));
    assert_null(strstr(page, "evil\n"));
    free(page);
    profile_free(&p);
}

static void test_empty_profile(void **state) {
    (void)state;
    profile p;
    profile_init(&p);
    char *page = render_html(&p, &flame);
    char *tree = field(page, "tree");
    assert_string_equal(tree, "0");
    assert_non_null(strstr(page, "\"names\":[]"));
    free(tree);
    free(page);
    profile_free(&p);
}

/* Java stacks can be thousands of frames deep: the writer must not recurse per frame. */
static void test_deep_stack(void **state) {
    (void)state;
    enum { DEPTH = 20000 };
    profile p;
    profile_init(&p);
    static uint32_t ids[DEPTH];
    char name[32];
    for (uint32_t i = 0; i < DEPTH; i++) {
        snprintf(name, sizeof(name), "F.f%u", i % 100);   /* names repeat: written once each */
        ids[i] = profile_intern(&p, name, FTYPE_JAVA);
    }
    profile_add(&p, ids, DEPTH, 7, 7);
    char *page = render_html(&p, &flame);
    char *tree = field(page, "tree");
    int commas = 0;
    for (char *c = tree; *c; c++) commas += *c == ',';
    assert_int_equal(commas, 3 * DEPTH);
    assert_true(strstr(tree, ",7,1,") != NULL);
    assert_true(strlen(tree) > 2 && strcmp(tree + strlen(tree) - 4, ",7,0") == 0);   /* the leaf */
    char *types = field(page, "types");
    assert_int_equal(strlen(types), 100);
    free(types);
    free(tree);
    free(page);
    profile_free(&p);
}

/* async-profiler's converter reads the page from its own layout of the frames: the same tree, names shared
 * with their predecessor's prefix, Java frames as JIT-compiled (1), markers as native (3). */
static void test_asprof_frames(void **state) {
    (void)state;
    profile p;
    synthetic_profile(&p);
    synthetic_add(&p, "[main tid=1];Main.main;Main.mainly", 5, 50);
    char *page = render_html(&p, &flame);
    char lines[2048];
    decode_asprof(page, lines, sizeof(lines));
    ASSERT_ALL_IN(lines, "all 105 3\n", "Main.main 100 1\n", "Main.main;Main.work 90 1\n", "Main.main;Main.work;Main.hot 60 1\n",
                  "Main.main;Main.work;Main.cold 30 1\n", "Main.main;Main.idle 10 1\n", "[main tid=1] 5 3\n",
                  "[main tid=1];Main.main 5 1\n", "[main tid=1];Main.main;Main.mainly 5 1\n");
    int count = 0;
    for (char *c = lines; *c; c++) count += *c == '\n';
    assert_int_equal(count, 9);
    /* inside an element the browser does not run, before the page ends */
    const char *block = strstr(page, "<script type=\"text/x-async-profiler-frames\">");
    assert_non_null(block);
    assert_true(block < strstr(page, "</body>"));
    free(page);
    profile_free(&p);

    /* quotes and backslashes escaped; "</" cannot end the element */
    profile_init(&p);
    synthetic_add(&p, "evil</script>;quote'back\\slash", 3, 3);
    page = render_html(&p, &flame);
    decode_asprof(page, lines, sizeof(lines));
    ASSERT_ALL_IN(lines, "evil<\\/script>;quote'back\\slash 3 1\n");
    assert_null(strstr(strstr(page, "x-async-profiler-frames"), "</script>;"));
    free(page);
    profile_free(&p);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tree_decodes),
        cmocka_unit_test(test_minwidth_total_and_flags),
        cmocka_unit_test(test_names_cannot_break_the_page),
        cmocka_unit_test(test_empty_profile),
        cmocka_unit_test(test_control_characters_escaped),
        cmocka_unit_test(test_deep_stack),
        cmocka_unit_test(test_asprof_frames),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
