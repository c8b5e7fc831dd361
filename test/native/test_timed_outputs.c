#define _GNU_SOURCE
/* The outputs that use when each sample was taken: the heatmap page's cells, and the application's spans
 * as pprof labels and Firefox markers. A profile of Main.alpha (3 samples) and Main.beta (2) under
 * Main.main on thread 7, with spans "alpha" (twice) and "beta" on that thread and a garbage collection. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "out_gecko.h"
#include "out_heatmap.h"
#include "out_pprof.h"
#include "profile.h"
#include "pprof_read.h"
#include "profile.pb-c.h"
#include "synthetic.h"

/* GCC 12 takes the text synthetic_render returns (open_memstream's buffer) for its local pointer variable
 * once everything is inlined here, and warns of a dangling pointer that is not. */
#pragma GCC diagnostic ignored "-Wdangling-pointer"

#define MS 1000000ULL
#define START (5000 * MS)   /* the profile's start: 5 s after the epoch */

static uint32_t alpha, beta;

static int write_heatmap(const profile *p, FILE *out) {
    out_html_options o = {0};
    return out_heatmap_write(p, out, &o);
}

static void timed_profile(profile *p, bool spans) {
    profile_init(p);
    p->meta.interval_ns = MS;
    p->meta.start_unix_ns = START;
    p->meta.duration_ns = 100 * MS;
    uint32_t main_id = profile_intern(p, "Main.main", FTYPE_JIT);
    uint32_t a[2] = {main_id, profile_intern(p, "Main.alpha", FTYPE_JIT)};
    uint32_t b[2] = {main_id, profile_intern(p, "Main.beta", FTYPE_JIT)};
    alpha = (uint32_t)profile_add_lines(p, a, NULL, 2, 3, 3 * MS);
    beta = (uint32_t)profile_add_lines(p, b, NULL, 2, 2, 2 * MS);
    if (spans) {
        assert_int_equal(profile_add_thread_span(p, "alpha", START, START + 10 * MS, 7), 0);
        assert_int_equal(profile_add_thread_span(p, "beta", START + 10 * MS, START + 20 * MS, 7), 0);
        assert_int_equal(profile_add_thread_span(p, "alpha", START + 20 * MS, START + 30 * MS, 7), 0);
        assert_int_equal(profile_add_span(p, "GC: G1 Young", START + 50 * MS, START + 52 * MS), 0);
    }
    /* alpha at 1, 21 (in spans) and 41 ms (in none), beta at 11 and 12 ms (in its span) */
    struct { uint32_t stack; uint64_t ms; uint32_t span; } ticks[] = {
        {alpha, 1, 1}, {alpha, 21, 3}, {alpha, 41, 0}, {beta, 11, 2}, {beta, 12, 2}};
    for (size_t i = 0; i < sizeof(ticks) / sizeof(ticks[0]); i++) {
        assert_int_equal(profile_add_tick(p, ticks[i].stack, START + ticks[i].ms * MS), 0);
        if (spans) p->ticks[p->tick_count - 1].span = ticks[i].span;
    }
    profile_sort_ticks(p);
}

/* The heatmap's cells of 20 ms, as groups "gap,pairs,node,count,...": alpha once and beta twice in cell 0,
 * alpha in cells 1 and 2. */
static void test_heatmap_cells(void **state) {
    (void)state;
    profile p;
    timed_profile(&p, false);
    size_t len;
    char *html = synthetic_render(write_heatmap, &p, &len);
    assert_non_null(strstr(html, "\"heatmap\":{\"startMs\":5000,\"cellMs\":20,\"cellCount\":5,\"cells\":\""));
    char cells[256];
    assert_int_equal(sscanf(strstr(html, "\"cells\":\""), "\"cells\":\"%255[0-9a-z,]", cells), 1);
    unsigned long v[32];
    int n = 0;
    for (char *at = cells, *end; n < 32 && *at; at = *end == ',' ? end + 1 : end) v[n++] = strtoul(at, &end, 36);
    assert_int_equal(n, 6 + 4 + 4);
    assert_int_equal(v[0], 0);          /* cell 0, two stacks */
    assert_int_equal(v[1], 2);
    unsigned long alpha_node = v[3] == 1 ? v[2] : v[4], beta_node = v[3] == 1 ? v[4] : v[2];
    assert_int_not_equal(alpha_node, beta_node);
    assert_int_equal(v[3] + v[5], 3);   /* one alpha, two beta */
    unsigned long next[8] = {1, 1, alpha_node, 1, 1, 1, alpha_node, 1};   /* cells 1 and 2: one alpha each */
    for (int i = 0; i < 8; i++) assert_int_equal(v[6 + i], next[i]);
    assert_non_null(strstr(html, "\"title\":\"Heatmap\""));
    free(html);
    profile_free(&p);
}

static void test_pprof_span_labels(void **state) {
    (void)state;
    profile p;
    timed_profile(&p, true);
    size_t len;
    char *gz = synthetic_render(out_pprof_write, &p, &len);
    Perftools__Profiles__Profile *pb = pprof_read(gz, len);
    /* per leaf and tag: alpha in "alpha" 2 (2 ms), alpha unlabelled 1, beta in "beta" 2 */
    uint64_t alpha_in = 0, alpha_out = 0, beta_in = 0, other = 0, weight_in = 0;
    for (size_t i = 0; i < pb->n_sample; i++) {
        const Perftools__Profiles__Sample *s = pb->sample[i];
        const Perftools__Profiles__Line *leaf = pb->location[s->location_id[0] - 1]->line[0];
        const char *name = pb->string_table[pb->function[leaf->function_id - 1]->name];
        const char *tag = NULL;
        for (size_t l = 0; l < s->n_label; l++)
            if (strcmp(pb->string_table[s->label[l]->key], "span") == 0) tag = pb->string_table[s->label[l]->str];
        if (strcmp(name, "Main.alpha") == 0 && tag && strcmp(tag, "alpha") == 0) alpha_in += s->value[0], weight_in += s->value[1];
        else if (strcmp(name, "Main.alpha") == 0 && !tag) alpha_out += s->value[0];
        else if (strcmp(name, "Main.beta") == 0 && tag && strcmp(tag, "beta") == 0) beta_in += s->value[0];
        else other += s->value[0];
    }
    assert_int_equal(alpha_in, 2);
    assert_int_equal(weight_in, 2 * MS);
    assert_int_equal(alpha_out, 1);
    assert_int_equal(beta_in, 2);
    assert_int_equal(other, 0);
    perftools__profiles__profile__free_unpacked(pb, NULL);
    free(gz);
    profile_free(&p);
}

static int occurrences(const char *text, const char *what) {
    int n = 0;
    for (const char *at = text; (at = strstr(at, what)); at++) n++;
    return n;
}

static void test_gecko_span_markers(void **state) {
    (void)state;
    profile p;
    timed_profile(&p, true);
    size_t len;
    char *json = synthetic_render(out_gecko_write, &p, &len);
    assert_int_equal(occurrences(json, "\"Span: alpha (tid 7)\""), 2);
    assert_int_equal(occurrences(json, "\"Span: beta (tid 7)\""), 1);
    assert_int_equal(occurrences(json, "{\"type\":\"Span\",\"tid\":7,\"tag\":\"alpha\"}"), 2);
    /* the beta span: 10 to 20 ms after the origin, the first span's start (before the first sample) */
    assert_non_null(strstr(json, ",10.000000,20.000000,1,0,{\"type\":\"Span\",\"tid\":7,\"tag\":\"beta\"}"));
    assert_int_equal(occurrences(json, "{\"type\":\"GC\"}"), 1);
    free(json);
    profile_free(&p);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_heatmap_cells),
        cmocka_unit_test(test_pprof_span_labels),
        cmocka_unit_test(test_gecko_span_markers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
