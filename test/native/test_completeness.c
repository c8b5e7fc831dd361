#define _GNU_SOURCE
/* Every writer says how complete the profile is: the samples dropped and the walks failed, by reason
 * in the output itself. The synthetic profile has 100 samples, 4 dropped (table_full) and 2
 * failed walks ([unknown_Java]). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "completeness.h"
#include "out_collapsed.h"
#include "out_cpuprofile.h"
#include "out_gecko.h"
#include "out_html.h"
#include "out_pprof.h"
#include "out_speedscope.h"
#include "out_text.h"
#include "synthetic.h"

#define SUMMARY "100 samples; dropped 4 (table_full 4); failed walks 2 (2.00%: [unknown_Java] 2)"


static int text(const profile *p, FILE *f) { return out_text_write(p, f, 10, 10); }
static int html(const profile *p, FILE *f) {
    out_html_options o = {0};
    return out_html_write(p, f, &o);
}

static void test_summary(void **state) {
    (void)state;
    profile p;
    synthetic_profile(&p);
    char line[512];
    completeness_summary(&p, line, sizeof(line));
    assert_string_equal(line, SUMMARY);
    assert_int_equal(completeness_dropped(&p), 4);
    assert_int_equal(completeness_failed(&p), 2);
    char small[20];   /* truncated, still terminated */
    completeness_summary(&p, small, sizeof(small));
    assert_int_equal(strlen(small), sizeof(small) - 1);
    profile_free(&p);
}

static void test_each_text_writer_states_it(void **state) {
    (void)state;
    profile p;
    synthetic_profile(&p);
    struct { const char *what; int (*write)(const profile *, FILE *); const char *expect; } cases[] = {
        {"collapsed", out_collapsed_write, "\n[dropped table_full] 4\n"},
        {"text", text, "Dropped samples: 4\n  table_full"},
        {"html", html, "\"completeness\":\"" SUMMARY "\""},
        {"speedscope", out_speedscope_write, "\"completeness\":\"" SUMMARY "\",\"dropped\":4,\"failed\":2"},
        {"cpuprofile", out_cpuprofile_write, "\"completeness\":\"" SUMMARY "\",\"dropped\":4,\"failed\":2"},
        {"gecko", out_gecko_write, "\"libprof: 4 samples dropped (table_full)\""},
        {"gecko failures", out_gecko_write, "\"libprof: 2 failed stack walks ([unknown_Java])\""},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        size_t len;
        char *out = synthetic_render(cases[i].write, &p, &len);
        if (!strstr(out, cases[i].expect)) fail_msg("%s: no '%s' in its output", cases[i].what, cases[i].expect);
        free(out);
    }
    profile_free(&p);
}

/* A profile without samples (an idle loop= period): speedscope still gets one (empty) profile and Firefox one
 * (empty) thread, as their importers refuse a file with none. */
static void test_empty_profile_opens(void **state) {
    (void)state;
    profile p;
    profile_init(&p);
    size_t len;
    char *out = synthetic_render(out_speedscope_write, &p, &len);
    if (!strstr(out, "\"profiles\":[{\"type\":\"sampled\",\"name\":\"all threads\""))
        fail_msg("speedscope: no empty profile: %s", out);
    free(out);
    out = synthetic_render(out_gecko_write, &p, &len);
    if (!strstr(out, "\"name\":\"all threads\"")) fail_msg("gecko: no empty thread: %s", out);
    free(out);
    profile_free(&p);
}

/* pprof: the summary is a comment, i.e. a string of the (gzipped) protobuf's string table. */
static void test_pprof_comment(void **state) {
    (void)state;
    profile p;
    synthetic_profile(&p);
    size_t len;
    char *gz = synthetic_render(out_pprof_write, &p, &len);
    assert_true(len > 2 && (unsigned char)gz[0] == 0x1f && (unsigned char)gz[1] == 0x8b);   /* gzip magic */
    z_stream z = {0};
    assert_int_equal(inflateInit2(&z, 15 + 16), Z_OK);
    static char raw[1 << 16];
    z.next_in = (Bytef *)gz;
    z.avail_in = (uInt)len;
    z.next_out = (Bytef *)raw;
    z.avail_out = sizeof(raw);
    assert_int_equal(inflate(&z, Z_FINISH), Z_STREAM_END);
    size_t n = sizeof(raw) - z.avail_out;
    inflateEnd(&z);
    assert_non_null(memmem(raw, n, SUMMARY, strlen(SUMMARY)));
    free(gz);
    profile_free(&p);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_summary),
        cmocka_unit_test(test_each_text_writer_states_it),
        cmocka_unit_test(test_pprof_comment),
        cmocka_unit_test(test_empty_profile_opens),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
