/*
 * The plain-program side of a fuzz harness: without -DLIBPROF_LIBFUZZER, the harness runs its
 * LLVMFuzzerTestOneInput once on each file named on the command line (a corpus), which is how the test
 * suite keeps every harness compiling and passing over its checked-in corpus.
 */
#ifndef TEST_FUZZ_MAIN_H
#define TEST_FUZZ_MAIN_H

#ifndef LIBPROF_LIBFUZZER
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        if (!f) {
            perror(argv[i]);
            return 1;
        }
        fseek(f, 0, SEEK_END);
        long size = ftell(f);
        rewind(f);
        uint8_t *data = malloc(size > 0 ? (size_t)size : 1);
        if (!data || fread(data, 1, (size_t)size, f) != (size_t)size) return 1;
        fclose(f);
        LLVMFuzzerTestOneInput(data, (size_t)size);
        free(data);
    }
    return 0;
}
#endif

#endif
