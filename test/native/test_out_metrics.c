/* Unit tests of the metrics writer (out_metrics.c): every metric has its HELP and TYPE, every reason is a
 * labelled sample, counters end in _total, values are what the input holds. promtool reads real output in
 * the integration tests (ApiTest java_api, attach parity). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "out_metrics.h"

static char *render(const profile_meta *m, const out_metrics_extra *x) {
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    assert_int_equal(out_metrics_write(m, x, f), 0);
    fclose(f);
    return text;
}

static void test_values_and_labels(void **state) {
    (void)state;
    profile_meta m;
    memset(&m, 0, sizeof(m));
    snprintf(m.engine, sizeof(m.engine), "ctimer");
    snprintf(m.cstack, sizeof(m.cstack), "vm");
    m.signals = 120;
    m.duration_ns = 2500000000ULL;
    m.drops[m.drop_count++] = (profile_count){"table_full", 3};
    m.drops[m.drop_count++] = (profile_count){"buffer_busy", 0};
    m.failures[m.failure_count++] = (profile_count){"[unknown_Java]", 2};
    m.cost[0] = (sample_cost_summary){"1-16", 100, 20000, 90000};
    out_metrics_extra x = {true, 115, 1, 7, 4096, 512};
    char *text = render(&m, &x);
    const char *expected[] = {
        "# TYPE libprof_samples_total counter\nlibprof_samples_total 115\n",
        "libprof_signals_total 120\n",
        "libprof_running 1\n",
        "libprof_info{engine=\"ctimer\",cstack=\"vm\"} 1\n",
        "libprof_duration_seconds 2.500\n",
        "libprof_dropped_samples_total{reason=\"table_full\"} 3\n",
        "libprof_dropped_samples_total{reason=\"buffer_busy\"} 0\n",
        "libprof_walk_failures_total{marker=\"[unknown_Java]\"} 2\n",
        "libprof_foreign_signals_total 1\n",
        "libprof_distinct_stacks 7\n",
        "libprof_storage_reserved_bytes 4096\n",
        "libprof_storage_used_bytes 512\n",
        "libprof_sample_cost_median_seconds{depth=\"1-16\"} 0.000020000\n",
        "libprof_sample_cost_p99_seconds{depth=\"1-16\"} 0.000090000\n",
        "libprof_sample_cost_measured_total{depth=\"1-16\"} 100\n",
    };
    for (size_t i = 0; i < sizeof(expected) / sizeof(expected[0]); i++) {
        if (!strstr(text, expected[i])) fail_msg("missing %s in:\n%s", expected[i], text);
    }
    /* Every sample line belongs to a metric declared by a TYPE line before it, with a HELP line. */
    char *save = NULL, declared[64] = "";
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (strncmp(line, "# HELP ", 7) == 0) continue;
        if (strncmp(line, "# TYPE ", 7) == 0) {
            snprintf(declared, sizeof(declared), "%.*s", (int)strcspn(line + 7, " "), line + 7);
            if (strstr(line, " counter")) assert_non_null(strstr(declared, "_total"));
            continue;
        }
        if (strncmp(line, declared, strlen(declared)) != 0) fail_msg("sample '%s' outside its metric %s", line, declared);
    }
    free(text);
}

/* async-profiler's spelling: two words a line, its names, the same counters; the walk cost with stats only. */
static void test_asprof_spelling(void **state) {
    (void)state;
    profile_meta m;
    memset(&m, 0, sizeof(m));
    m.signals = 120;
    m.drops[m.drop_count++] = (profile_count){"table_full", 3};
    m.drops[m.drop_count++] = (profile_count){"frames_full", 1};
    m.drops[m.drop_count++] = (profile_count){"buffer_busy", 2};
    m.cost[0] = (sample_cost_summary){"1-16", 100, 20000, 90000};
    m.cost[1] = (sample_cost_summary){"17-64", 50, 40000, 90000};
    out_metrics_extra x = {true, 115, 1, 7, 4096, 1500};
    for (int stats = 0; stats < 2; stats++) {
        m.stats = stats;
        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        assert_int_equal(out_metrics_write_asprof(&m, &x, f), 0);
        fclose(f);
        const char *expected[] = {"mem_calltracestorage_kb 2\n", "samples_total 120\n", "samples_skipped_total 6\n",
                                  "calltracestorage_overflows_total 4\n"};
        for (size_t i = 0; i < sizeof(expected) / sizeof(expected[0]); i++)
            if (!strstr(text, expected[i])) fail_msg("missing %s in:\n%s", expected[i], text);
        assert_true(stats ? strstr(text, "stackwalk_ns_total 4000000\nstackwalk_ns_avg 26667\n") != NULL
                          : strstr(text, "stackwalk") == NULL);
        char *save = NULL;
        for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
            char name[64];
            unsigned long long value;
            char rest;
            if (sscanf(line, "%63s %llu%c", name, &value, &rest) != 2) fail_msg("not 'name value': %s", line);
        }
        free(text);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values_and_labels),
        cmocka_unit_test(test_asprof_spelling),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
