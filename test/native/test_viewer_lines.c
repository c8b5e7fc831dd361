#define _GNU_SOURCE
/* The viewer formats carry source files and lines, and the recorded order of samples: a
 * profile whose Main.hot (pkg/Main.java, first line 9) was sampled 3 times at line 10 and once at line 11
 * under Main.main (first line 4, calling at line 5), at recorded times given out of order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "out_cpuprofile.h"
#include "out_gecko.h"
#include "out_pprof.h"
#include "out_speedscope.h"
#include "profile.h"
#include "pprof_read.h"
#include "profile.pb-c.h"
#include "synthetic.h"

static void lined_profile(profile *p, bool ticks) {
    profile_init(p);
    p->meta.interval_ns = 1000000;
    uint32_t ids[2] = {profile_intern(p, "Main.main", FTYPE_JIT), profile_intern(p, "Main.hot", FTYPE_JIT)};
    assert_int_equal(profile_set_source(p, ids[0], "pkg/Main.java", 4), 0);
    assert_int_equal(profile_set_source(p, ids[1], "pkg/Main.java", 9), 0);
    int32_t at10[2] = {5, 10}, at11[2] = {5, 11};
    /* times (ms): line 10 at 1, 2 and 2.5; line 11 at 3; added out of order as JFR's thread buffers are */
    uint64_t times[4] = {3000000, 1000000, 2500000, 2000000};
    for (int i = 0; i < 4; i++) {
        long stack = profile_add_lines(p, ids, i == 0 ? at11 : at10, 2, 1, 1000000);
        assert_true(stack >= 0);
        if (ticks) assert_int_equal(profile_add_tick(p, (uint32_t)stack, times[i]), 0);
    }
    assert_int_equal(p->stack_count, 2);   /* the same names on other lines stay apart */
    profile_sort_ticks(p);
}


static int occurrences(const char *text, const char *what) {
    int n = 0;
    for (const char *at = text; (at = strstr(at, what)); at++) n++;
    return n;
}

static void test_cpuprofile_lines_and_recorded_order(void **state) {
    (void)state;
    profile p;
    lined_profile(&p, true);
    size_t len;
    char *json = synthetic_render(out_cpuprofile_write, &p, &len);
    /* one node per function, its file and 0-based first line, its self samples per 1-based line */
    assert_int_equal(occurrences(json, "\"functionName\":\"Main.hot\""), 1);
    assert_non_null(strstr(json, "\"functionName\":\"Main.hot\",\"scriptId\":\"0\",\"url\":\"pkg/Main.java\","
                                 "\"lineNumber\":8,"));
    assert_non_null(strstr(json, "\"positionTicks\":[{\"line\":10,\"ticks\":3},{\"line\":11,\"ticks\":1}]"));
    /* nodes: 1 (root), 2 Main.main, 3 Main.hot; the samples in time order, then the closing one on root */
    assert_non_null(strstr(json, "\"samples\":[3,3,3,3,1]"));
    assert_non_null(strstr(json, "\"timeDeltas\":[0,1000,500,500,1000]"));
    assert_non_null(strstr(json, "\"startTime\":1000,\"endTime\":4000"));
    assert_non_null(strstr(json, "\"synthesisedOrder\":false"));
    free(json);
    profile_free(&p);
}

static void test_without_ticks_the_order_is_synthesised(void **state) {
    (void)state;
    profile p;
    lined_profile(&p, false);
    size_t len;
    char *json = synthetic_render(out_cpuprofile_write, &p, &len);
    assert_non_null(strstr(json, "\"synthesisedOrder\":true"));
    assert_non_null(strstr(json, "\"startTime\":0,\"endTime\":4000"));
    free(json);
    json = synthetic_render(out_gecko_write, &p, &len);
    assert_non_null(strstr(json, "\"synthesisedOrder\":true"));
    free(json);
    profile_free(&p);
}

static void test_gecko_locations_lines_and_times(void **state) {
    (void)state;
    profile p;
    lined_profile(&p, true);
    size_t len;
    char *json = synthetic_render(out_gecko_write, &p, &len);
    assert_non_null(strstr(json, "\"Main.hot (pkg/Main.java:9)\""));
    assert_non_null(strstr(json, "\"Main.main (pkg/Main.java:4)\""));
    /* frames per line: main at 5, hot at 10 and 11 (the line column, 5th) */
    assert_non_null(strstr(json, "[0,false,null,null,5,null,1,0]"));
    assert_non_null(strstr(json, "[1,false,null,null,11,null,1,0]"));
    assert_non_null(strstr(json, "[2,false,null,null,10,null,1,0]"));
    /* ms since the first sample (meta.startTime 1 ms after the epoch), in time order */
    assert_non_null(strstr(json, "\"startTime\":1.000000,"));
    assert_non_null(strstr(json, "\"data\":[[2,0.000000,0,1000000],[2,1.000000,0,1000000],[2,1.500000,0,1000000],"
                                 "[1,2.000000,0,1000000],[null,3.000000,0,0]]"));
    free(json);
    profile_free(&p);
}

/* Garbage collections as interval markers, all in one time base: from the earliest of the first sample and the
 * spans (here a collection 0.5 ms before the first sample), which meta.startTime gives. */
static void test_gecko_gc_markers_share_one_origin(void **state) {
    (void)state;
    profile p;
    lined_profile(&p, true);
    assert_int_equal(profile_add_span(&p, "GC: G1 Young (Allocation Failure)", 500000, 700000), 0);
    assert_int_equal(profile_add_span(&p, "GC: G1 Young (Allocation Failure)", 2200000, 2400000), 0);
    assert_int_equal(profile_add_span(&p, "GC: G1 Old (System.gc())", 3500000, 5000000), 0);
    size_t len;
    char *json = synthetic_render(out_gecko_write, &p, &len);
    assert_non_null(strstr(json, "\"startTime\":0.500000,"));
    assert_non_null(strstr(json, ",0.000000,0.200000,1,"));
    assert_non_null(strstr(json, ",1.700000,1.900000,1,"));
    assert_non_null(strstr(json, ",3.000000,4.500000,1,"));
    assert_int_equal(occurrences(json, "{\"type\":\"GC\"}"), 3);
    /* the first thread's samples from the same origin, closed after the last span */
    assert_non_null(strstr(json, "[2,0.500000,0,1000000]"));
    assert_non_null(strstr(json, "[null,4.500000,0,0]"));
    free(json);
    profile_free(&p);
}

static void test_speedscope_frames(void **state) {
    (void)state;
    profile p;
    lined_profile(&p, false);
    size_t len;
    char *json = synthetic_render(out_speedscope_write, &p, &len);
    assert_non_null(strstr(json, "{\"name\":\"Main.hot\",\"file\":\"pkg/Main.java\",\"line\":9}"));
    assert_non_null(strstr(json, "{\"name\":\"Main.main\",\"file\":\"pkg/Main.java\",\"line\":4}"));
    free(json);
    profile_free(&p);
}

static void test_pprof_functions_and_locations(void **state) {
    (void)state;
    profile p;
    lined_profile(&p, false);
    size_t len;
    char *gz = synthetic_render(out_pprof_write, &p, &len);
    Perftools__Profiles__Profile *pb = pprof_read(gz, len);
    assert_int_equal(pb->n_function, 2);
    for (size_t i = 0; i < pb->n_function; i++) {
        const char *name = pb->string_table[pb->function[i]->name];
        assert_string_equal(pb->string_table[pb->function[i]->filename], "pkg/Main.java");
        assert_int_equal(pb->function[i]->start_line, strcmp(name, "Main.hot") == 0 ? 9 : 4);
    }
    /* a location per (function, line): hot at 10, hot at 11, main at 5 */
    assert_int_equal(pb->n_location, 3);
    int hot10 = 0, hot11 = 0, main5 = 0;
    for (size_t i = 0; i < pb->n_location; i++) {
        assert_int_equal(pb->location[i]->n_line, 1);
        const Perftools__Profiles__Line *l = pb->location[i]->line[0];
        const char *name = pb->string_table[pb->function[l->function_id - 1]->name];
        hot10 += strcmp(name, "Main.hot") == 0 && l->line == 10;
        hot11 += strcmp(name, "Main.hot") == 0 && l->line == 11;
        main5 += strcmp(name, "Main.main") == 0 && l->line == 5;
    }
    assert_int_equal(hot10 + hot11 + main5, 3);
    assert_true(hot10 && hot11 && main5);
    perftools__profiles__profile__free_unpacked(pb, NULL);
    free(gz);
    profile_free(&p);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cpuprofile_lines_and_recorded_order),
        cmocka_unit_test(test_without_ticks_the_order_is_synthesised),
        cmocka_unit_test(test_gecko_locations_lines_and_times),
        cmocka_unit_test(test_gecko_gc_markers_share_one_origin),
        cmocka_unit_test(test_speedscope_frames),
        cmocka_unit_test(test_pprof_functions_and_locations),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
