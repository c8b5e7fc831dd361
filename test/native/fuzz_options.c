/*
 * Fuzz harness for the option grammar and the file= pattern expansion: any bytes must give either
 * options or one error line, never a crash, a hang or an unterminated message. With clang and libFuzzer:
 *     clang -g -O1 -fsanitize=fuzzer,address,undefined -DLIBPROF_LIBFUZZER -Iagent test/native/fuzz_options.c \
 *         agent/options/options.c agent/util/filepath.c agent/util/log.c agent/options/perf_events.c -o fuzz_options
 *     ./fuzz_options -max_len=4096 test/native/corpus/options/
 * Without -DLIBPROF_LIBFUZZER: runs each corpus file once (see fuzz_main.h).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "filepath.h"
#include "options.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = 0;
    prof_options o;
    char err[OPTIONS_ERROR_MAX];
    err[sizeof(err) - 1] = 0x7f;
    if (options_parse(text, &o, err, sizeof(err)) == 0) {
        options_effective_format(&o);
        char path[2048];
        filepath_expand(o.file, getpid(), time(NULL), path, sizeof(path), err, sizeof(err));
    } else if (memchr(err, 0, sizeof(err)) == NULL) {
        abort();  /* the message must always be terminated */
    }
    free(text);
    return 0;
}

#include "fuzz_main.h"
