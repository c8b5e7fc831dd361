/*
 * bench_symbols: what native symbols and unwind tables cost. Not part of the test run; build with
 * `cmake --build build --target bench_symbols` and run build/bin/bench_symbols [libjvm.so ...].
 * Prints, per library: function symbols loaded and the time to load them, FDEs and unwind rows and the time
 * to build them; then the cost of one lookup (symtab_find, dwarf_find, native_map_unwind, native_map_name).
 * `bench_symbols --rows lib.so` prints the unwind rows instead, for bench/check_unwind_readelf.py.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dwarf.h"
#include "elf_reader.h"
#include "native_map.h"
#include "symtab.h"

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static volatile uintptr_t sink;

static void bench_file(const char *path) {
    char err[256];
    bool debug = false;
    double t0 = now();
    symtab *s = symtab_load_elf(path, NULL, &debug, err, sizeof(err));
    double t1 = now();
    if (!s) {
        printf("%s: %s\n", path, err);
        return;
    }
    elf_image *img = elf_open(path, err, sizeof(err));
    double t2 = now();
    unwind_table *u = dwarf_build(img);
    double t3 = now();
    size_t unknown = 0;
    for (size_t i = 0; i < u->nrows; i++) unknown += u->rows[i].cfa_reg == UNWIND_UNKNOWN;
    printf("%s\n  symbols: %zu%s in %.1f ms\n  unwind: %zu FDEs -> %zu rows (%zu unknown, %.1f MB) in %.1f ms\n",
           path, symtab_count(s), debug ? " (from the debug file)" : "", (t1 - t0) * 1e3, dwarf_fde_count(u),
           dwarf_row_count(u), unknown, (double)(dwarf_row_count(u) * sizeof(unwind_row)) / 1e6, (t3 - t2) * 1e3);
    /* Lookups at pseudo-random addresses over the object's text. */
    uint64_t lo = u->nrows ? u->rows[0].pc_offset : 0, hi = u->nrows ? u->rows[u->nrows - 1].pc_offset : 1;
    const int n = 2000000;
    unsigned seed = 1;
    double t4 = now();
    for (int i = 0; i < n; i++) sink = (uintptr_t)symtab_find(s, lo + (uint64_t)rand_r(&seed) % (hi - lo + 1), NULL);
    double t5 = now();
    for (int i = 0; i < n; i++) sink = (uintptr_t)dwarf_find(u, lo + (uint64_t)rand_r(&seed) % (hi - lo + 1));
    double t6 = now();
    printf("  lookup: symtab_find %.0f ns, dwarf_find %.0f ns\n", (t5 - t4) * 1e9 / n, (t6 - t5) * 1e9 / n);
    dwarf_free(u);
    elf_close(img);
    symtab_free(s);
}

static int print_rows(const char *path) {
    char err[256];
    elf_image *img = elf_open(path, err, sizeof(err));
    if (!img) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    unwind_table *u = dwarf_build(img);
    for (size_t i = 0; i < dwarf_row_count(u); i++)
        printf("%x %d %d %d\n", u->rows[i].pc_offset, u->rows[i].cfa_reg, u->rows[i].cfa_offset, u->rows[i].fp_offset);
    dwarf_free(u);
    elf_close(img);
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[1], "--rows") == 0) return print_rows(argv[2]);
    for (int i = 1; i < argc; i++) bench_file(argv[i]);
    double t0 = now();
    int loaded = native_map_refresh();
    double t1 = now();
    native_map_refresh();
    double t2 = now();
    native_map_stats st = native_map_get_stats();
    printf("native_map_refresh: %d objects, %zu symbols, %zu rows in %.1f ms; again (nothing new) %.2f ms\n", loaded,
           st.objects ? st.symbols : 0, st.unwind_rows, (t1 - t0) * 1e3, (t2 - t1) * 1e3);
    uintptr_t base = (uintptr_t)dlsym(RTLD_DEFAULT, "qsort");
    const int n = 2000000;
    unsigned seed = 1;
    double t3 = now();
    for (int i = 0; i < n; i++) sink = (uintptr_t)native_map_unwind(base + (uintptr_t)(rand_r(&seed) % 65536));
    double t4 = now();
    char buf[256];
    const int m = 200000;
    for (int i = 0; i < m; i++) native_map_name(base + (uintptr_t)(rand_r(&seed) % 65536), buf, sizeof(buf), NULL);
    double t5 = now();
    printf("native_map_unwind %.0f ns, native_map_name %.0f ns\n", (t4 - t3) * 1e9 / n, (t5 - t4) * 1e9 / m);
    return 0;
}
