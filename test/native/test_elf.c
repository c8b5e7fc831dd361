/*
 * Unit tests of the ELF reader: on the system's libc and libz as this process maps them, the separate debug
 * file search, and on truncated and corrupted copies of libz (which must give errors or fewer symbols, never
 * a crash or a hang).
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dlfcn.h>
#include <elf.h>
#include <limits.h>
#include <link.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dwarf.h"
#include "elf_reader.h"
#include "symtab.h"
#include "test_maps.h"

static char err[512];

/* The load bias the dynamic loader itself used for the object containing addr. */
static uint64_t loader_bias(void *addr) {
    Dl_info info;
    struct link_map *map = NULL;
    assert_true(dladdr1(addr, &info, (void **)&map, RTLD_DL_LINKMAP));
    return map->l_addr;
}

static void test_libz_deflate(void **state) {
    (void)state;
    void *z = dlopen("libz.so.1", RTLD_NOW);
    assert_non_null(z);
    void *deflate = dlsym(z, "deflate");
    assert_non_null(deflate);
    char path[PATH_MAX];
    uint64_t start = 0, offset = 0, bias = 0;
    assert_true(test_maps_find("libz.so", path, sizeof(path), &start, &offset));
    elf_image *img = elf_open(path, err, sizeof(err));
    assert_non_null(img);
    assert_true(elf_load_bias(img, start, offset, &bias));
    assert_int_equal(bias, loader_bias(deflate));

    bool from_debug = true;
    symtab *t = symtab_from_elf(img, path, "/nonexistent", &from_debug);
    assert_false(from_debug);
    assert_true(symtab_count(t) > 50);
    uint64_t off = 99;
    const char *name = symtab_find(t, (uintptr_t)deflate - bias, &off);
    assert_non_null(name);
    assert_string_equal(name, "deflate");
    assert_int_equal(off, 0);
    assert_string_equal(symtab_find(t, (uintptr_t)deflate - bias + 5, &off), "deflate");
    assert_int_equal(off, 5);
    assert_string_equal(symtab_find(t, (uintptr_t)dlsym(z, "inflate") - bias, NULL), "inflate");
    symtab_free(t);

    size_t nseg;
    const elf_segment *segs = elf_segments(img, &nseg);
    bool exec = false;
    for (size_t i = 0; i < nseg; i++)
        exec |= (segs[i].flags & PF_X) && (uintptr_t)deflate - bias >= segs[i].vaddr &&
                (uintptr_t)deflate - bias < segs[i].vaddr + segs[i].memsz;
    assert_true(exec);
    elf_section eh, hdr;
    assert_true(elf_eh_frame(img, &eh));
    assert_true(elf_eh_frame_hdr(img, &hdr));
    assert_true(eh.size > 100 && hdr.size > 12);
    const uint8_t *id;
    size_t idlen;
    assert_true(elf_build_id(img, &id, &idlen));
    assert_int_equal(idlen, 20);
    elf_close(img);
    dlclose(z);
}

/* The build-id path of an image's debug file under root. */
static void build_id_path(const elf_image *img, const char *root, char *out, size_t len) {
    const uint8_t *id;
    size_t n;
    assert_true(elf_build_id(img, &id, &n));
    int k = snprintf(out, len, "%s/.build-id/%02x/", root, id[0]);
    for (size_t i = 1; i < n; i++) k += snprintf(out + k, len - (size_t)k, "%02x", id[i]);
    snprintf(out + k, len - (size_t)k, ".debug");
}

static void test_libc(void **state) {
    (void)state;
    char path[PATH_MAX], dbg_path[PATH_MAX];
    uint64_t start = 0, offset = 0, bias = 0;
    assert_true(test_maps_find("libc.so", path, sizeof(path), &start, &offset));
    elf_image *img = elf_open(path, err, sizeof(err));
    assert_non_null(img);
    assert_true(elf_load_bias(img, start, offset, &bias));
    assert_int_equal(bias, loader_bias((void *)getpid));
    build_id_path(img, "/usr/lib/debug", dbg_path, sizeof(dbg_path));
    bool have_debug = access(dbg_path, R_OK) == 0 && !elf_has_symtab(img);
    bool from_debug = false;
    symtab *t = symtab_from_elf(img, path, NULL, &from_debug);
    assert_int_equal(from_debug, have_debug);
    /* getpid is a weak alias of __getpid: the public name wins. */
    assert_string_equal(symtab_find(t, (uintptr_t)getpid - bias, NULL), "getpid");
#ifndef __SANITIZE_ADDRESS__
    /* Under AddressSanitizer, qsort resolves to the sanitizer's interceptor, not to libc. */
    assert_string_equal(symtab_find(t, (uintptr_t)dlsym(RTLD_DEFAULT, "qsort") - bias, NULL), "qsort");
#endif
    if (have_debug) {
        /* A local function: only in the debug file's .symtab. */
        uint64_t local;
        assert_true(symtab_lookup_name(t, "__libc_start_call_main", &local));
        print_message("libc: %zu function symbols from %s\n", symtab_count(t), dbg_path);
    }
    symtab_free(t);
    elf_close(img);
}

static void test_debug_file_search(void **state) {
    (void)state;
    char path[PATH_MAX], real_dbg[PATH_MAX], p[PATH_MAX];
    uint64_t start = 0, offset = 0;
    assert_true(test_maps_find("libc.so", path, sizeof(path), &start, &offset));
    elf_image *img = elf_open(path, err, sizeof(err));
    assert_non_null(img);
    build_id_path(img, "/usr/lib/debug", real_dbg, sizeof(real_dbg));
    const char *link = elf_debuglink(img);
    if (access(real_dbg, R_OK) != 0 || !link) {
        print_message("no libc debug file or debuglink: search not tested\n");
        elf_close(img);
        skip();
    }
    char dir[] = "/tmp/libprof-debug-XXXXXX";
    assert_non_null(mkdtemp(dir));
    /* 1. by build-id under a given root */
    char root[PATH_MAX];
    snprintf(root, sizeof(root), "%s/root", dir);
    build_id_path(img, root, p, sizeof(p));
    for (char *s = strchr(p + 1, '/'); s; s = strchr(s + 1, '/')) {
        *s = 0;
        mkdir(p, 0700);
        *s = '/';
    }
    assert_int_equal(symlink(real_dbg, p), 0);
    elf_image *dbg = elf_debug_open(img, path, root);
    assert_non_null(dbg);
    assert_true(elf_has_symtab(dbg));
    elf_close(dbg);
    unlink(p);
    /* 2. by .gnu_debuglink in the object's .debug/ directory */
    char lib[PATH_MAX];
    snprintf(lib, sizeof(lib), "%s/libc.so.6", dir);
    assert_int_equal(symlink(path, lib), 0);
    snprintf(p, sizeof(p), "%s/.debug", dir);
    mkdir(p, 0700);
    snprintf(p, sizeof(p), "%s/.debug/%s", dir, link);
    assert_int_equal(symlink(real_dbg, p), 0);
    dbg = elf_debug_open(img, lib, "/nonexistent");
    assert_non_null(dbg);
    elf_close(dbg);
    /* 3. a debuglink target with another build-id is refused */
    unlink(p);
    assert_int_equal(symlink("/proc/self/exe", p), 0);
    assert_null(elf_debug_open(img, lib, "/nonexistent"));
    unlink(p);
    unlink(lib);
    snprintf(p, sizeof(p), "%s/.debug", dir);
    rmdir(p);
    snprintf(p, sizeof(p), "rm -rf '%s'", dir);
    assert_int_equal(system(p), 0);
    elf_close(img);
}

static void test_not_elf(void **state) {
    (void)state;
    assert_null(elf_open("/nonexistent/libfoo.so", err, sizeof(err)));
    assert_non_null(strstr(err, "/nonexistent/libfoo.so"));
    assert_null(elf_open("/proc/self/maps", err, sizeof(err)));  /* not a regular file of ELF size */
    assert_null(elf_open("/tmp", err, sizeof(err)));
    assert_null(symtab_load_elf("/etc/passwd", NULL, NULL, err, sizeof(err)));
}

/* ---- damaged files ---- */

static uint8_t *libz_bytes;
static size_t libz_size;
static int memfd = -1;
static char memfd_path[64];

static int setup_damage(void **state) {
    (void)state;
    char path[PATH_MAX];
    uint64_t start = 0, offset = 0;
    void *z = dlopen("libz.so.1", RTLD_NOW);
    if (!z || !test_maps_find("libz.so", path, sizeof(path), &start, &offset)) return -1;
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    fseek(f, 0, SEEK_END);
    libz_size = (size_t)ftell(f);
    rewind(f);
    libz_bytes = malloc(libz_size);
    if (fread(libz_bytes, 1, libz_size, f) != libz_size) return -1;
    fclose(f);
    memfd = memfd_create("libprof-elf-test", MFD_CLOEXEC);
    snprintf(memfd_path, sizeof(memfd_path), "/proc/self/fd/%d", memfd);
    return memfd < 0 ? -1 : 0;
}

static int teardown_damage(void **state) {
    (void)state;
    free(libz_bytes);
    close(memfd);
    return 0;
}

/* Writes bytes as the memfd's whole content and runs every reader over it. Returns the symbol count, or
 * -1 when elf_open refused the file. */
static long exercise(const uint8_t *bytes, size_t size) {
    assert_int_equal(ftruncate(memfd, 0), 0);
    if (size) assert_int_equal(pwrite(memfd, bytes, size, 0), (ssize_t)size);
    elf_image *img = elf_open(memfd_path, err, sizeof(err));
    if (!img) {
        assert_true(strlen(err) > 0);
        return -1;
    }
    size_t n;
    elf_segments(img, &n);
    const uint8_t *id;
    size_t len;
    uint64_t bias;
    elf_build_id(img, &id, &len);
    elf_debuglink(img);
    elf_load_bias(img, 0x7f0000000000, 0x1000, &bias);
    elf_section s;
    elf_eh_frame(img, &s);
    elf_eh_frame_hdr(img, &s);
    elf_vaddr_data(img, 0x6f10, 4096);
    symtab *t = symtab_from_elf(img, memfd_path, "/nonexistent", NULL);
    long count = (long)symtab_count(t);
    for (uint64_t a = 0; a < 0x20000; a += 0x100) symtab_find(t, a, NULL);
    symtab_free(t);
    unwind_table *u = dwarf_build(img);
    for (uint64_t a = 0; a < 0x20000; a += 0x40) dwarf_find(u, a);
    dwarf_free(u);
    elf_close(img);
    return count;
}

static void test_truncated(void **state) {
    (void)state;
    long full = exercise(libz_bytes, libz_size);
    assert_true(full > 50);
    size_t sizes[] = {0, 1, 4, 16, 63, 64, 65, 200, 1000, 4096, 10000, libz_size / 2, libz_size - 100,
                      libz_size - 1};
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        long n = exercise(libz_bytes, sizes[i]);
        if (sizes[i] < 64) assert_int_equal(n, -1);
        else assert_true(n < full);  /* the section headers are at the end: cut off, so no symbol table */
    }
    for (size_t cut = 64; cut < libz_size; cut += 997) assert_true(exercise(libz_bytes, cut) < full);
}

static uint8_t *damaged;

static void poke(size_t at, uint64_t value, size_t width) {
    memcpy(damaged, libz_bytes, libz_size);
    if (at + width <= libz_size) memcpy(damaged + at, &value, width);
    exercise(damaged, libz_size);
}

static void test_corrupted_headers(void **state) {
    (void)state;
    damaged = malloc(libz_size);
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)libz_bytes;
    const uint64_t values[] = {0, 1, 7, 0x7fffffff, 0xffffffff, UINT64_MAX, UINT64_MAX - 7, 0x8000000000000000ULL};
    const size_t nvalues = sizeof(values) / sizeof(values[0]);
    for (size_t v = 0; v < nvalues; v++) {
        poke(offsetof(Elf64_Ehdr, e_phoff), values[v], 8);
        poke(offsetof(Elf64_Ehdr, e_shoff), values[v], 8);
        poke(offsetof(Elf64_Ehdr, e_phnum), values[v], 2);
        poke(offsetof(Elf64_Ehdr, e_shnum), values[v], 2);
        poke(offsetof(Elf64_Ehdr, e_shstrndx), values[v], 2);
        poke(offsetof(Elf64_Ehdr, e_shentsize), values[v], 2);
        static const size_t sh_fields[][2] = {
            {offsetof(Elf64_Shdr, sh_offset), 8}, {offsetof(Elf64_Shdr, sh_size), 8},
            {offsetof(Elf64_Shdr, sh_addr), 8},   {offsetof(Elf64_Shdr, sh_link), 4},
            {offsetof(Elf64_Shdr, sh_name), 4},   {offsetof(Elf64_Shdr, sh_entsize), 8},
            {offsetof(Elf64_Shdr, sh_type), 4}};
        static const size_t ph_fields[][2] = {
            {offsetof(Elf64_Phdr, p_offset), 8}, {offsetof(Elf64_Phdr, p_filesz), 8},
            {offsetof(Elf64_Phdr, p_vaddr), 8},  {offsetof(Elf64_Phdr, p_type), 4}};
        for (size_t i = 0; i < eh->e_shnum; i++)
            for (size_t f = 0; f < sizeof(sh_fields) / sizeof(sh_fields[0]); f++)
                poke(eh->e_shoff + i * sizeof(Elf64_Shdr) + sh_fields[f][0], values[v], sh_fields[f][1]);
        for (size_t i = 0; i < eh->e_phnum; i++)
            for (size_t f = 0; f < sizeof(ph_fields) / sizeof(ph_fields[0]); f++)
                poke(eh->e_phoff + i * sizeof(Elf64_Phdr) + ph_fields[f][0], values[v], ph_fields[f][1]);
    }
    free(damaged);
}

/* Random byte changes, aimed at the parts the parsers interpret. Deterministic (fixed seed). */
static void test_corrupted_random(void **state) {
    (void)state;
    damaged = malloc(libz_size);
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)libz_bytes;
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(libz_bytes + eh->e_shoff);
    const char *names = (const char *)libz_bytes + sh[eh->e_shstrndx].sh_offset;
    size_t targets[8][2], ntargets = 0;
    for (size_t i = 0; i < eh->e_shnum; i++) {
        const char *n = names + sh[i].sh_name;
        if (!strcmp(n, ".eh_frame") || !strcmp(n, ".eh_frame_hdr") || !strcmp(n, ".dynsym") ||
            !strcmp(n, ".dynstr") || !strcmp(n, ".note.gnu.build-id") || !strcmp(n, ".gnu_debuglink"))
            targets[ntargets][0] = sh[i].sh_offset, targets[ntargets++][1] = sh[i].sh_size;
    }
    targets[ntargets][0] = eh->e_shoff, targets[ntargets++][1] = eh->e_shnum * sizeof(Elf64_Shdr);
    assert_true(ntargets >= 6);
    unsigned seed = 12345;
    for (int iter = 0; iter < 1500; iter++) {
        memcpy(damaged, libz_bytes, libz_size);
        size_t t = (size_t)rand_r(&seed) % (ntargets + 1);
        size_t base = t < ntargets ? targets[t][0] : 0, span = t < ntargets ? targets[t][1] : libz_size;
        int flips = 1 + rand_r(&seed) % 24;
        for (int f = 0; f < flips && span; f++) damaged[base + (size_t)rand_r(&seed) % span] = (uint8_t)rand_r(&seed);
        exercise(damaged, libz_size);
    }
    free(damaged);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_libz_deflate),
        cmocka_unit_test(test_libc),
        cmocka_unit_test(test_debug_file_search),
        cmocka_unit_test(test_not_elf),
        cmocka_unit_test_setup_teardown(test_truncated, setup_damage, teardown_damage),
        cmocka_unit_test_setup_teardown(test_corrupted_headers, setup_damage, teardown_damage),
        cmocka_unit_test_setup_teardown(test_corrupted_random, setup_damage, teardown_damage),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
