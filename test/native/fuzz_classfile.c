/*
 * Fuzz harness for the class file rewriter: any bytes must give REWRITTEN, UNCHANGED or REFUSED with a
 * terminated reason, never a crash, a hang or a leak; and whatever it writes must parse again (our output
 * is input to the JVM, which trusts it for boot classes). With clang and libFuzzer:
 *     clang-14 -g -O1 -fsanitize=fuzzer,address,undefined -DLIBPROF_LIBFUZZER -Iagent/classfile \
 *         test/native/fuzz_classfile.c agent/classfile/classfile*.c -o fuzz_classfile
 *     ./fuzz_classfile -max_len=65536 test/native/corpus/classfile/
 * Without -DLIBPROF_LIBFUZZER: runs each corpus file once (see fuzz_main.h).
 */
#include <stdlib.h>
#include <string.h>

#include "classfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Selects every other method, so that selected and copied methods alternate. */
static bool select_some(const char *class_name, const char *method_name, const char *descriptor, void *arg) {
    (void)class_name, (void)method_name, (void)descriptor;
    return (*(int *)arg)++ % 2 == 0;
}

static bool select_none(const char *class_name, const char *method_name, const char *descriptor, void *arg) {
    (void)class_name, (void)method_name, (void)descriptor, (void)arg;
    return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    uint8_t *out = NULL, *again = NULL;
    size_t out_len = 0, again_len = 0;
    int calls = 0, methods = -1;
    char why[256];
    why[sizeof(why) - 1] = 0x7f;
    classfile_result r = classfile_instrument(data, size, "libprof/Helper", "hit", select_some, &calls, &out,
                                              &out_len, &methods, why, sizeof(why));
    if (r == CLASSFILE_REFUSED && (memchr(why, 0, sizeof(why)) == NULL || why[0] == 0)) abort();
    if ((r == CLASSFILE_REWRITTEN) != (out != NULL) || (r == CLASSFILE_REWRITTEN && methods <= 0)) abort();
    if (r == CLASSFILE_REWRITTEN) {
        /* the output must be a class file we understand, with the same methods, selecting none */
        if (classfile_instrument(out, out_len, "libprof/Helper", "hit", select_none, NULL, &again, &again_len,
                                 NULL, why, sizeof(why)) != CLASSFILE_UNCHANGED)
            abort();
    }
    free(out);
    free(again);
    return 0;
}

#include "fuzz_main.h"
