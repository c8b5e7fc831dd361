/*
 * Fuzz harness for the ELF reader and everything that parses what it returns (symbol tables, notes,
 * .eh_frame). With clang and libFuzzer:
 *     clang -g -O1 -fsanitize=fuzzer,address,undefined -DLIBPROF_LIBFUZZER -Iagent test/native/fuzz_elf.c \
 *         agent/native/elf_reader.c agent/native/elf_debug.c agent/native/symtab.c agent/native/dwarf.c agent/signal/dwarf_step.c -o fuzz_elf
 *     ./fuzz_elf -max_len=200000 corpus/      (seed corpus: a few small .so files)
 * The inputs under 6 KB of a long run are checked in as test/native/corpus/elf/ (docs/dev/testing.md).
 * Without -DLIBPROF_LIBFUZZER it is a plain program that runs each file named on its command line once,
 * which is how the test suite keeps it compiling and working.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "dwarf.h"
#include "elf_reader.h"
#include "symtab.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    elf_image *img = elf_open_bytes("fuzz-input", data, size, NULL, 0);
    if (!img) return 0;
    size_t n;
    const elf_segment *segs = elf_segments(img, &n);
    uint64_t bias;
    for (size_t i = 0; i < n; i++) elf_load_bias(img, 0x7f0000000000 + segs[i].offset, segs[i].offset, &bias);
    const uint8_t *id;
    size_t len;
    elf_build_id(img, &id, &len);
    elf_debuglink(img);
    elf_section s;
    elf_eh_frame_hdr(img, &s);
    symtab *t = symtab_from_elf(img, "fuzz-input", "/nonexistent", NULL);
    unwind_table *u = dwarf_build(img);
    for (size_t i = 0; i < n; i++) {
        for (uint64_t a = segs[i].vaddr; a < segs[i].vaddr + segs[i].memsz && a < segs[i].vaddr + 65536; a += 61) {
            symtab_find(t, a, NULL);
            dwarf_find(u, a);
        }
    }
    dwarf_free(u);
    symtab_free(t);
    elf_close(img);
    return 0;
}

#include "fuzz_main.h"
