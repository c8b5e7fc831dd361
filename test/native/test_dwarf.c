/*
 * Unit tests of the DWARF unwind tables: a hand-assembled .eh_frame exercising each call frame instruction
 * we interpret, the step function on synthetic memory, and real unwinding of call chains compiled without
 * frame pointers (dwarf_chain.c) in this process, through the test binary's and libc's own tables.
 * libunwind walks the same live chains as an independent oracle: it reads the same .eh_frame with its own
 * interpreter, so every step we take (return address and caller's stack pointer) must be one it takes too.
 * (libunwind cannot replace our unwinder in the signal handler, see dwarf.h; here, outside one, it can judge.)
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define UNW_LOCAL_ONLY
#include <libunwind.h>

#include "dwarf.h"
#include "dwarf_chain.h"
#include "elf_reader.h"
#include "native_map.h"
#include "test_maps.h"

/* ---- a synthetic .eh_frame ---- */

static const uint8_t synthetic_eh_frame[] = {
    /* CIE at 0: length 20, id 0, version 1, "zR", code_align 1, data_align -8, RA r16, aug data: udata4 */
    20, 0, 0, 0, 0, 0, 0, 0, 1, 'z', 'R', 0, 1, 0x78, 16, 1, 0x03,
    0x0c, 7, 8,  /* def_cfa rsp+8 */
    0x90, 1,     /* offset r16 at cfa-8 */
    0, 0,        /* nops */
    /* FDE at 24: length 48, CIE pointer 28 (back to 0), pc 0x1000, range 0x100, no aug data */
    48, 0, 0, 0, 28, 0, 0, 0, 0x00, 0x10, 0, 0, 0x00, 0x01, 0, 0, 0,
    0x41, 0x0e, 16, 0x86, 2,        /* 0x1001: cfa rsp+16, rbp at cfa-16 */
    0x43, 0x0d, 6,                  /* 0x1004: cfa rbp+16 */
    0x50, 0x0a, 0x0c, 7, 8, 0xc6,   /* 0x1014: remember; cfa rsp+8; restore rbp */
    0x41, 0x0b,                     /* 0x1015: restore_state: back to rbp+16, rbp at -16 */
    0x41, 0x0f, 2, 0x77, 0x08,      /* 0x1016: def_cfa_expression -> unknown */
    0x41, 0x0c, 7, 16,              /* 0x1017: cfa rsp+16 */
    0x41, 0x07, 16,                 /* 0x1018: return address undefined -> end */
    0x02, 0xff,                     /* advance_loc1 255: beyond the FDE's end, ignored */
    0x0e, 64, 0, 0, 0,
    /* FDE at 76: length 16, CIE pointer 80, pc 0x1200, range 0x10, no instructions */
    16, 0, 0, 0, 80, 0, 0, 0, 0x00, 0x12, 0, 0, 0x10, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0,  /* terminator */
};

static void expect_row(const unwind_table *t, uint64_t pc, uint8_t reg, int32_t cfa, int16_t fp) {
    const unwind_row *r = dwarf_find(t, pc);
    assert_non_null(r);
    assert_int_equal(r->cfa_reg, reg);
    if (reg == UNWIND_RSP || reg == UNWIND_RBP) {
        assert_int_equal(r->cfa_offset, cfa);
        assert_int_equal(r->fp_offset, fp);
    }
}

static void test_synthetic(void **state) {
    (void)state;
    elf_section eh = {synthetic_eh_frame, sizeof(synthetic_eh_frame), 0x5000};
    unwind_table *t = dwarf_build_sections(&eh, NULL);
    assert_non_null(t);
    assert_int_equal(dwarf_fde_count(t), 2);
    assert_null(dwarf_find(t, 0xfff));
    expect_row(t, 0x1000, UNWIND_RSP, 8, UNWIND_FP_SAME);
    expect_row(t, 0x1001, UNWIND_RSP, 16, -16);
    expect_row(t, 0x1003, UNWIND_RSP, 16, -16);
    expect_row(t, 0x1004, UNWIND_RBP, 16, -16);
    expect_row(t, 0x1013, UNWIND_RBP, 16, -16);
    expect_row(t, 0x1014, UNWIND_RSP, 8, UNWIND_FP_SAME);
    expect_row(t, 0x1015, UNWIND_RBP, 16, -16);
    expect_row(t, 0x1016, UNWIND_UNKNOWN, 0, 0);
    expect_row(t, 0x1017, UNWIND_RSP, 16, -16);
    expect_row(t, 0x1018, UNWIND_END, 0, 0);
    expect_row(t, 0x10ff, UNWIND_END, 0, 0);
    assert_null(dwarf_find(t, 0x1100));  /* between the FDEs */
    assert_null(dwarf_find(t, 0x11ff));
    expect_row(t, 0x1200, UNWIND_RSP, 8, UNWIND_FP_SAME);
    expect_row(t, 0x120f, UNWIND_RSP, 8, UNWIND_FP_SAME);
    assert_null(dwarf_find(t, 0x1210));
    assert_null(dwarf_find(t, UINT64_MAX));
    dwarf_free(t);

    /* Every truncation of the section parses without harm, into no more FDEs than the whole. */
    for (size_t n = 0; n < sizeof(synthetic_eh_frame); n++) {
        elf_section cut = {synthetic_eh_frame, n, 0x5000};
        t = dwarf_build_sections(&cut, NULL);
        assert_non_null(t);
        assert_true(dwarf_fde_count(t) <= 2);
        dwarf_free(t);
    }
}

/* A synthetic .debug_frame: a version 4 CIE (address_size 8) in 32-bit DWARF, its FDE; an FDE over a range
 * .eh_frame covers (ignored: .eh_frame wins); a version 3 CIE and FDE in 64-bit DWARF; an FDE at address 0
 * (a function the linker dropped; ignored). CIE pointers count from the section's start. */
static const uint8_t synthetic_debug_frame[] = {
    /* CIE at 0: length 16, id 0xffffffff, version 4, "", address_size 8, segment_size 0, code_align 1,
     * data_align -8, RA r16; def_cfa rsp+8, offset r16 at cfa-8 */
    16, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 4, 0, 8, 0, 1, 0x78, 16, 0x0c, 7, 8, 0x90, 1,
    /* FDE at 20: length 24, CIE 0, pc 0x2000, range 0x40; 0x2001: cfa rsp+16 */
    24, 0, 0, 0, 0, 0, 0, 0, 0x00, 0x20, 0, 0, 0, 0, 0, 0, 0x40, 0, 0, 0, 0, 0, 0, 0, 0x41, 0x0e, 16, 0,
    /* FDE at 48: length 20, CIE 0, pc 0x1000, range 0x10: inside .eh_frame's first FDE */
    20, 0, 0, 0, 0, 0, 0, 0, 0x00, 0x10, 0, 0, 0, 0, 0, 0, 0x10, 0, 0, 0, 0, 0, 0, 0,
    /* CIE at 72, 64-bit: length 18, id ~0, version 3, "", code_align 1, data_align -8, RA r16 (uleb) */
    0xff, 0xff, 0xff, 0xff, 18, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 3, 0, 1, 0x78,
    16, 0x0c, 7, 8, 0x90, 1,
    /* FDE at 102, 64-bit: length 24, CIE 72, pc 0x3000, range 0x20 */
    0xff, 0xff, 0xff, 0xff, 24, 0, 0, 0, 0, 0, 0, 0, 72, 0, 0, 0, 0, 0, 0, 0, 0x00, 0x30, 0, 0, 0, 0, 0, 0, 0x20, 0,
    0, 0, 0, 0, 0, 0,
    /* FDE at 138: length 20, CIE 0, pc 0, range 0x10 */
    20, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10, 0, 0, 0, 0, 0, 0, 0,
};

static void test_synthetic_debug_frame(void **state) {
    (void)state;
    elf_section eh = {synthetic_eh_frame, sizeof(synthetic_eh_frame), 0x5000};
    elf_section dbg = {synthetic_debug_frame, sizeof(synthetic_debug_frame), 0};
    unwind_table *t = dwarf_build_frames(&eh, NULL, &dbg);
    assert_non_null(t);
    assert_int_equal(dwarf_fde_count(t), 4);  /* two from each section */
    expect_row(t, 0x1000, UNWIND_RSP, 8, UNWIND_FP_SAME);  /* .eh_frame's rows stay */
    expect_row(t, 0x1005, UNWIND_RBP, 16, -16);
    expect_row(t, 0x2000, UNWIND_RSP, 8, UNWIND_FP_SAME);
    expect_row(t, 0x2001, UNWIND_RSP, 16, UNWIND_FP_SAME);
    expect_row(t, 0x203f, UNWIND_RSP, 16, UNWIND_FP_SAME);
    assert_null(dwarf_find(t, 0x2040));
    expect_row(t, 0x3000, UNWIND_RSP, 8, UNWIND_FP_SAME);
    expect_row(t, 0x301f, UNWIND_RSP, 8, UNWIND_FP_SAME);
    assert_null(dwarf_find(t, 0x3020));
    assert_null(dwarf_find(t, 0x5));
    dwarf_free(t);

    /* .debug_frame alone; and its CIE pointers are not .eh_frame's: read as .eh_frame it yields nothing. */
    t = dwarf_build_frames(NULL, NULL, &dbg);
    assert_int_equal(dwarf_fde_count(t), 3);
    expect_row(t, 0x1000, UNWIND_RSP, 8, UNWIND_FP_SAME);
    dwarf_free(t);
    t = dwarf_build_sections(&dbg, NULL);
    assert_int_equal(dwarf_fde_count(t), 0);
    dwarf_free(t);

    /* Every truncation parses without harm. */
    for (size_t n = 0; n < sizeof(synthetic_debug_frame); n++) {
        elf_section cut = {synthetic_debug_frame, n, 0};
        t = dwarf_build_frames(&eh, NULL, &cut);
        assert_non_null(t);
        assert_true(dwarf_fde_count(t) <= 4);
        dwarf_free(t);
    }
}

/* A search table that lists one long FDE 20000 times must not make the build run its instructions 20000
 * times (time and memory would explode): the work is bounded by the section size. */
static void test_repeated_fde(void **state) {
    (void)state;
    enum { ADVANCES = 4000, ENTRIES = 20000 };
    static uint8_t eh[24 + 8 + 13 + 2 * ADVANCES + 3], hdr[12 + 8 * ENTRIES];
    memcpy(eh, synthetic_eh_frame, 24);  /* the CIE */
    uint8_t *f = eh + 24;
    uint32_t len = (uint32_t)(sizeof(eh) - 24 - 4), cie_ptr = 28;
    memcpy(f, &len, 4);
    memcpy(f + 4, &cie_ptr, 4);
    uint32_t pc = 0x1000, range = 4 * ADVANCES;
    memcpy(f + 8, &pc, 4);
    memcpy(f + 12, &range, 4);
    f[16] = 0;
    uint8_t *insn = f + 17;
    for (int i = 0; i < ADVANCES; i++) {
        *insn++ = 0x44;                 /* advance 4 */
        *insn++ = i & 1 ? 0x8e : 0x8f;  /* offset r14 or r15: a change that emits a row each time */
    }
    /* .eh_frame_hdr at 0x10000 (eh at 0x20000): version 1, eh_frame_ptr udata4, count udata4, table datarel
     * sdata4, every entry pointing at the one FDE. */
    hdr[0] = 1, hdr[1] = 0x03, hdr[2] = 0x03, hdr[3] = 0x3b;
    uint32_t eh_ptr = 0x20000, count = ENTRIES;
    memcpy(hdr + 4, &eh_ptr, 4);
    memcpy(hdr + 8, &count, 4);
    for (int i = 0; i < ENTRIES; i++) {
        int32_t loc = 0x1000, fde = 0x20000 + 24 - 0x10000;
        memcpy(hdr + 12 + 8 * i, &loc, 4);
        memcpy(hdr + 16 + 8 * i, &fde, 4);
    }
    elf_section e = {eh, sizeof(eh), 0x20000}, h = {hdr, sizeof(hdr), 0x10000};
    unwind_table *t = dwarf_build_sections(&e, &h);
    assert_non_null(t);
    assert_true(dwarf_fde_count(t) < 100);
    expect_row(t, 0x1000, UNWIND_RSP, 8, UNWIND_FP_SAME);
    dwarf_free(t);
}

/* ---- dwarf_step on synthetic memory ---- */

static uintptr_t fake_stack[16];
static uintptr_t fake_base = 0x10000;

static bool read_fake(uintptr_t addr, uintptr_t *out) {
    if (addr < fake_base || addr >= fake_base + sizeof(fake_stack) || (addr & 7)) return false;
    *out = fake_stack[(addr - fake_base) / 8];
    return true;
}

static void test_step(void **state) {
    (void)state;
    fake_stack[0] = 0x7777;  /* saved rbp at sp */
    fake_stack[1] = 0x4242;  /* return address */
    unwind_row rsp_row = {0, 16, -16, UNWIND_RSP, 0};
    uintptr_t pc = 1, sp = fake_base, fp = 5;
    assert_true(dwarf_step(&rsp_row, &pc, &sp, &fp, read_fake));
    assert_int_equal(pc, 0x4242);
    assert_int_equal(sp, fake_base + 16);
    assert_int_equal(fp, 0x7777);

    unwind_row rbp_row = {0, 16, UNWIND_FP_SAME, UNWIND_RBP, 0};
    pc = 1, sp = fake_base - 64, fp = fake_base;
    assert_true(dwarf_step(&rbp_row, &pc, &sp, &fp, read_fake));
    assert_int_equal(pc, 0x4242);
    assert_int_equal(sp, fake_base + 16);
    assert_int_equal(fp, fake_base);  /* unchanged */

    /* Failures leave the registers alone. */
    unwind_row unknown = {0, 0, 0, UNWIND_UNKNOWN, 0}, end = {0, 0, 0, UNWIND_END, 0};
    pc = 1, sp = fake_base, fp = 5;
    assert_false(dwarf_step(&unknown, &pc, &sp, &fp, read_fake));
    assert_false(dwarf_step(&end, &pc, &sp, &fp, read_fake));
    assert_false(dwarf_step(NULL, &pc, &sp, &fp, read_fake));
    fp = fake_base - 64;  /* an rbp below sp: the CFA would not be above sp */
    assert_false(dwarf_step(&rbp_row, &pc, &sp, &fp, read_fake));
    sp = fake_base + 4096;  /* unreadable */
    assert_false(dwarf_step(&rsp_row, &pc, &sp, &fp, read_fake));
    assert_int_equal(pc, 1);
    assert_int_equal(sp, fake_base + 4096);
}

/* ---- real chains ---- */

static bool read_direct(uintptr_t addr, uintptr_t *out) {
    *out = *(const uintptr_t *)addr;  /* the chains walked here are on this thread's live stack */
    return true;
}

/* One step from regs through the published tables; leaf tells whether pc is the interrupted instruction
 * rather than a return address. */
static bool step(chain_regs *r, bool leaf) { return native_map_step(&r->pc, &r->sp, &r->fp, leaf, read_direct); }

static const char *name_of(uintptr_t pc, const char **library) {
    static char buf[256];
    return native_map_name(pc, buf, sizeof(buf), library) ? buf : "?";
}

/* The walks run inside the hook, while the chain is live on the stack; the assertions run after it. */
#define MAX_WALK 32
static uintptr_t walked[MAX_WALK], walked_sp[MAX_WALK];  /* [0] the leaf pc and sp, then each caller's */
static int nwalked;
static uintptr_t oracle[MAX_WALK + 4], oracle_sp[MAX_WALK + 4];  /* libunwind's, from the hook's own frame */
static int noracle;

static void walk_hook(const chain_regs *regs) {
    chain_regs r = *regs;
    nwalked = 0;
    walked_sp[nwalked] = r.sp;
    walked[nwalked++] = r.pc;
    while (nwalked < MAX_WALK) {
        uintptr_t sp = r.sp;
        if (!step(&r, nwalked == 1) || r.sp <= sp) break;
        walked_sp[nwalked] = r.sp;
        walked[nwalked++] = r.pc;
    }
    unw_context_t context;
    unw_cursor_t cursor;
    noracle = 0;
    if (unw_getcontext(&context) != 0 || unw_init_local(&cursor, &context) != 0) return;
    do {
        unw_word_t ip, sp;
        if (unw_get_reg(&cursor, UNW_REG_IP, &ip) != 0 || unw_get_reg(&cursor, UNW_REG_SP, &sp) != 0) break;
        oracle[noracle] = ip;
        oracle_sp[noracle++] = sp;
    } while (noracle < MAX_WALK + 4 && unw_step(&cursor) > 0);
}

/* Our walk agrees with libunwind's from the leaf's caller on, frame for frame, and ends no earlier (within
 * MAX_WALK). libunwind starts in the hook, two frames above the leaf, so the leaf's caller is found by its
 * return address. */
static void expect_oracle_agrees(void) {
    assert_true(nwalked >= 2);
    int k = 0;
    while (k < noracle && oracle[k] != walked[1]) k++;
    assert_true(k < noracle);
    int common = 0;
    for (int i = 1; i < nwalked && k + i - 1 < noracle; i++, common++) {
        assert_int_equal(walked[i], oracle[k + i - 1]);
        assert_int_equal(walked_sp[i], oracle_sp[k + i - 1]);
    }
    int expected = noracle - k + 1 < MAX_WALK ? noracle - k + 1 : MAX_WALK;
    print_message("%d steps agree with libunwind's (ours %d frames, libunwind's from the leaf %d)\n", common,
                  nwalked, noracle - k + 1);
    assert_true(nwalked >= expected);
}

/* Volatile so the compiler cannot prove anything about the result and drop the call. */
static volatile int chain_sink;

static void test_chain_without_frame_pointers(void **state) {
    (void)state;
    native_map_refresh();
    chain_leaf_hook = walk_hook;
    chain_sink = chain_a(5);
    assert_true(nwalked >= 5);
    assert_string_equal(name_of(walked[0], NULL), "chain_c");
    const char *expected[3] = {"chain_b", "chain_a", "test_chain_without_frame_pointers"};
    for (int i = 0; i < 3; i++) {
        assert_int_equal(walked[i + 1], chain_returns[i]);  /* what the compiler itself says */
        assert_int_equal(walked_sp[i + 1], chain_cfas[i]);
        assert_string_equal(name_of(walked[i + 1], NULL), expected[i]);
    }
    /* chain_b addresses its frame through rbp (a variable-length array): the step out of chain_c kept rbp,
     * the step out of chain_b reloaded the caller's. Going on through this function (whose CFA is rbp-based)
     * into cmocka shows the caller's rbp came back right. */
    const char *library = NULL;
    name_of(walked[4], &library);
    assert_non_null(library);
    assert_memory_equal(library, "libcmocka.so", 12);
    expect_oracle_agrees();
}

static void test_chain_through_libc(void **state) {
#ifdef __SANITIZE_ADDRESS__
    /* AddressSanitizer intercepts qsort: the frames between the comparator and us are its own, not libc's. */
    skip();
#endif
    (void)state;
    native_map_refresh();
    chain_leaf_hook = walk_hook;
    chain_sink = chain_qsort();
    assert_string_equal(name_of(walked[0], NULL), "compare_ints");
    int libc_frames = 0, i = 1;
    const char *library = NULL;
    for (; i < nwalked; i++) {
        const char *name = name_of(walked[i], &library);
        if (strcmp(name, "chain_qsort") == 0) break;
        assert_non_null(library);
        assert_string_equal(library, "libc.so.6");
        libc_frames++;
    }
    print_message("compare_ints -> %d libc frames -> chain_qsort\n", libc_frames);
    assert_true(i < nwalked);  /* chain_qsort was reached */
    assert_true(libc_frames >= 1);
    expect_oracle_agrees();  /* the libc frames included: the steps through libc's own tables are right */
}

static void test_libc_tables(void **state) {
    (void)state;
    char path[PATH_MAX];
    uint64_t start = 0, offset = 0;
    assert_true(test_maps_find("libc.so", path, sizeof(path), &start, &offset));
    elf_image *img = elf_open(path, NULL, 0);
    assert_non_null(img);
    elf_section eh, hdr;
    assert_true(elf_eh_frame(img, &eh));
    assert_true(elf_eh_frame_hdr(img, &hdr));
    /* Through the .eh_frame_hdr table and by scanning .eh_frame: the same FDEs, the same rows. */
    unwind_table *a = dwarf_build_sections(&eh, &hdr), *b = dwarf_build_sections(&eh, NULL);
    assert_true(dwarf_fde_count(a) > 1000);
    assert_int_equal(dwarf_fde_count(a), dwarf_fde_count(b));
    assert_int_equal(dwarf_row_count(a), dwarf_row_count(b));
    assert_memory_equal(a->rows, b->rows, dwarf_row_count(a) * sizeof(unwind_row));
    for (size_t i = 1; i < a->nrows; i++) assert_true(a->rows[i - 1].pc_offset < a->rows[i].pc_offset);
    dwarf_free(a);
    dwarf_free(b);
    elf_close(img);
}

/* ---- .debug_frame only ---- */

/* The rows .eh_frame alone gives (what the tables held before .debug_frame was read). */
static unwind_table *eh_frame_only(const elf_image *img) {
    elf_section eh, hdr;
    bool has_eh = elf_eh_frame(img, &eh), has_hdr = elf_eh_frame_hdr(img, &hdr);
    return dwarf_build_frames(has_eh ? &eh : NULL, has_eh && has_hdr ? &hdr : NULL, NULL);
}

/* The chain of dwarf_chain.c in a library built with no .eh_frame for it and without frame pointers
 * (tests.cmake): .eh_frame has no row for its functions, the tables with .debug_frame (the library's own, or
 * its separate debug file's when split) do, and a live walk through it agrees with what the compiler says. */
static void __attribute__((noinline)) walk_debug_frame_library(const char *path, bool split) {
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    assert_non_null(lib);
    int (*lib_chain_a)(int) = (int (*)(int))dlsym(lib, "chain_a");
    void (**hook)(const chain_regs *) = (void (**)(const chain_regs *))dlsym(lib, "chain_leaf_hook");
    const uintptr_t *returns = (const uintptr_t *)dlsym(lib, "chain_returns");
    const uintptr_t *cfas = (const uintptr_t *)dlsym(lib, "chain_cfas");
    assert_non_null(cfas);
    assert_non_null(lib_chain_a);
    assert_non_null(hook);
    assert_non_null(returns);
    Dl_info info;
    assert_true(dladdr((void *)lib_chain_a, &info));
    uintptr_t bias = (uintptr_t)info.dli_fbase;  /* a shared object is linked at 0 */

    elf_image *img = elf_open(path, NULL, 0);
    assert_non_null(img);
    elf_section own;
    elf_image *debug = elf_debug_open(img, path, NULL);
    assert_true(split ? !elf_section_by_name(img, ".debug_frame", &own) && debug
                      : elf_section_by_name(img, ".debug_frame", &own));
    unwind_table *eh = eh_frame_only(img), *all = dwarf_build_with_debug(img, debug);
    assert_non_null(eh);
    assert_non_null(all);
    const char *fns[] = {"chain_a", "chain_b", "chain_c"};
    for (int i = 0; i < 3; i++) {
        uintptr_t fn = (uintptr_t)dlsym(lib, fns[i]);
        assert_true(fn > bias);
        assert_null(dwarf_find(eh, fn - bias));          /* .eh_frame cannot walk it */
        const unwind_row *row = dwarf_find(all, fn - bias);  /* .debug_frame can */
        assert_non_null(row);
        assert_int_equal(row->cfa_reg, UNWIND_RSP);
        assert_int_equal(row->cfa_offset, 8);
    }
    print_message("%s: %zu FDEs from .eh_frame, %zu with .debug_frame\n", path, dwarf_fde_count(eh),
                  dwarf_fde_count(all));
    dwarf_free(eh);
    dwarf_free(all);
    elf_close(debug);
    elf_close(img);

    native_map_refresh();
    *hook = walk_hook;
    chain_sink = lib_chain_a(5);
    assert_true(nwalked >= 5);
    assert_string_equal(name_of(walked[0], NULL), "chain_c");
    const char *expected[3] = {"chain_b", "chain_a", "walk_debug_frame_library"};
    /* The compiler is the oracle here: every return address and CFA it gives is where we stepped. (Debian's
     * libunwind reads .debug_frame only on ARM, so on x86_64 it stops at chain_c and cannot judge.) */
    for (int i = 0; i < 3; i++) {
        assert_int_equal(walked[i + 1], returns[i]);
        assert_int_equal(walked_sp[i + 1], cfas[i]);
        assert_string_equal(name_of(walked[i + 1], NULL), expected[i]);
    }
    /* And the walk goes on through the test (with .eh_frame) into cmocka. */
    bool cmocka = false;
    for (int i = 4; i < nwalked && !cmocka; i++) {
        const char *library = NULL;
        name_of(walked[i], &library);
        cmocka = library && strncmp(library, "libcmocka.so", 12) == 0;
    }
    assert_true(cmocka);
    dlclose(lib);
}

static void test_chain_debug_frame_only(void **state) {
    (void)state;
    walk_debug_frame_library(DEBUG_FRAME_ONLY_LIB, false);
}

static void test_chain_debug_frame_split(void **state) {
    (void)state;
    walk_debug_frame_library(DEBUG_FRAME_SPLIT_LIB, true);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_synthetic),
        cmocka_unit_test(test_synthetic_debug_frame),
        cmocka_unit_test(test_repeated_fde),
        cmocka_unit_test(test_step),
        cmocka_unit_test(test_chain_without_frame_pointers),
        cmocka_unit_test(test_chain_through_libc),
        cmocka_unit_test(test_libc_tables),
        cmocka_unit_test(test_chain_debug_frame_only),
        cmocka_unit_test(test_chain_debug_frame_split),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
