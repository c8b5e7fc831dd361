/*
 * Fuzz harness for the JFR reader and converter: any bytes must give either a profile or one terminated
 * error message, never a crash, a hang or unbounded memory. The first input byte picks the converter's
 * options (threads, ann, reverse, a state filter, a pattern filter, cpu_only) so that every naming and
 * filtering path is reached; the rest is the file. With clang and libFuzzer:
 *     clang-14 -g -O1 -fsanitize=fuzzer,address,undefined -DLIBPROF_LIBFUZZER -Iagent -Ijfrconv test/native/fuzz_jfr.c \
 *         jfrconv/jfr_*.c agent/profile/names.c agent/profile/profile.c agent/util/u64map.c \
 *         agent/out/out_collapsed.c -o fuzz_jfr
 *     nice -n 10 ./fuzz_jfr -max_len=300000 -rss_limit_mb=1024 -timeout=10 corpus-work/ test/native/corpus/jfr/
 * Without -DLIBPROF_LIBFUZZER: runs each corpus file once (see fuzz_main.h).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jfr_convert.h"
#include "out_collapsed.h"
#include "profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    uint8_t mode = size ? data[0] : 0;
    /* Real recordings start with 'F' (0x46): those keep the default options and the whole file. */
    if (mode != 'F' && size) {
        data++;
        size--;
    } else {
        mode = 0;
    }
    jfr_convert_options o;
    jfr_convert_options_init(&o);
    o.threads = mode & 1;
    o.style.ann = mode & 2;
    o.reverse_stacks = mode & 4;
    o.cpu_only = mode & 8;
    o.style.sig = mode & 16;
    char err[256];
    if (mode & 32) jfr_convert_add_states(&o, "RUNNABLE,s", err, sizeof(err));
    if (mode & 64) jfr_convert_add_filter(&o, true, "*a*", err, sizeof(err));
    if (mode & 128) jfr_convert_add_filter(&o, false, "java/.*", err, sizeof(err));
    profile p;
    profile_init(&p);
    jfr_convert_stats st = {0};
    jfr_error e = {0};
    e.message[sizeof(e.message) - 1] = 0x7f;
    if (jfr_convert(&o, data, size, &p, &st, &e) == 0) {
        FILE *null = fopen("/dev/null", "w");
        if (null) {
            out_collapsed_write(&p, null);
            fclose(null);
        }
    } else if (!e.failed || memchr(e.message, 0, sizeof(e.message)) == NULL || !e.message[0]) {
        abort();  /* a failure must always come with a terminated message */
    }
    uint64_t start, end;
    jfr_error e2 = {0};
    jfr_convert_span(data, size, &start, &end, &e2);
    profile_free(&p);
    jfr_convert_options_free(&o);
    return 0;
}

#include "fuzz_main.h"
