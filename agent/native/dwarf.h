/*
 * dwarf: compact unwind tables for x86_64 code without frame pointers, built from an object's .eh_frame at
 * load time (and from .debug_frame, in the object or its separate debug file, for the functions .eh_frame
 * lacks: code built with -fno-asynchronous-unwind-tables -g) and read by the stack walker in signal handlers.
 *
 * Why not libunwind in the handler: its local unwinder finds unwind info through dl_iterate_phdr, which
 * takes the dynamic loader's lock. A signal that interrupts a thread inside dlopen/dlclose (holding that
 * lock) would then deadlock the thread in its own handler. It also parses DWARF at every step. Instead we
 * run the call frame programs of every FDE once, when the object is first seen (native_map_refresh, never in
 * a handler), and keep only what a walker needs at each pc: how to compute the CFA (rsp or rbp plus an
 * offset) and where the caller's rbp was saved. The return address on x86_64 is always at CFA-8; rules we
 * cannot follow cheaply (DWARF expressions, registers other than rsp/rbp, PLT stubs) give an UNWIND_UNKNOWN
 * row so the walker knows to fall back to frame pointers. The finished table is immutable: lookups are a
 * lock-free binary search.
 *
 * Building (dwarf.c): allocates, reads the ELF file (see elf_reader.h). Lookups and dwarf_step (dwarf_step.c, apart
 * so the signal-safe code is in a file of its own): async-signal-safe.
 */
#ifndef LIBPROF_DWARF_H
#define LIBPROF_DWARF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "elf_reader.h"

/* DWARF register numbers on x86_64 for the two CFA bases we support. */
#define UNWIND_RBP 6
#define UNWIND_RSP 7
#define UNWIND_UNKNOWN 0xff  /* the CFA rule is one we do not follow: fall back to another method */
#define UNWIND_END 0xfe      /* the return address is undefined: outermost frame (_start, clone) */
#define UNWIND_FP_SAME INT16_MIN         /* rbp still holds the caller's value */
#define UNWIND_FP_UNKNOWN (INT16_MIN + 1) /* rbp was saved in a way we do not follow */

/* 12 bytes per row: cfa_offset keeps 32 bits (large stack frames), fp_offset needs only 16 (rbp is saved
 * next to the return address). */
typedef struct {
    uint32_t pc_offset;  /* link-time address (run-time pc minus the object's load bias) where the row starts */
    int32_t cfa_offset;  /* CFA = register cfa_reg + cfa_offset */
    int16_t fp_offset;   /* caller's rbp at CFA + fp_offset, or UNWIND_FP_SAME / UNWIND_FP_UNKNOWN */
    uint8_t cfa_reg;     /* UNWIND_RSP, UNWIND_RBP, UNWIND_UNKNOWN or UNWIND_END */
    uint8_t reserved;
} unwind_row;

/* Immutable once built. Rows sorted by pc_offset; the extent of an FDE ends with an UNWIND_NONE row. */
#define UNWIND_NONE 0xfd  /* internal: no FDE covers these addresses (dwarf_find answers NULL) */
typedef struct unwind_table {
    unwind_row *rows;
    size_t nrows;
    size_t nfdes;
    /* The page index (dwarf_index.c): page_first[p] = the number of rows starting below
     * rows[0].pc_offset + (p << page_shift), for p = 0..npages (page_first[npages] == nrows). A lookup reads
     * one entry pair, then searches only the rows of its page: it touches two or three cache lines instead of
     * the ~18 of a binary search over the whole table, each of whose deeper probes lands on another page of
     * a table of megabytes (libjvm). NULL (a plain binary search) when not built. */
    uint32_t *page_first;
    size_t npages;
    unsigned page_shift;
} unwind_table;

/* Builds the table of an ELF image from .eh_frame (enumerating FDEs through the .eh_frame_hdr search table
 * when there is one). Returns an empty table when the object has no unwind info; NULL only when out of
 * memory. Malformed data ends the parse of the FDE (or the section) concerned, never the process. */
unwind_table *dwarf_build(const elf_image *img);

/* The same, adding the rows of .debug_frame (the object's own, else the one in debug, its separate debug file
 * from elf_debug_open; debug may be NULL) for the address ranges no .eh_frame FDE covers. */
unwind_table *dwarf_build_with_debug(const elf_image *img, const elf_image *debug);

/* The same from raw sections (hdr may be NULL): for tests. */
unwind_table *dwarf_build_sections(const elf_section *eh_frame, const elf_section *hdr);

/* From raw sections, any of them NULL: .eh_frame (with its search table hdr) first, then the FDEs of
 * .debug_frame (DWARF CIE ids, CIE pointers from the section's start, absolute addresses of the CIE's
 * address_size; versions 1, 3, 4) whose ranges .eh_frame does not touch. The work is bounded by the
 * sections' size, whatever they hold. */
unwind_table *dwarf_build_frames(const elf_section *eh_frame, const elf_section *hdr,
                                 const elf_section *debug_frame);

/* Builds t's page index with pages of 1 << shift bytes of text (widened while the index would have more
 * entries than 4 per row, so a table whose rows are far apart stays small). dwarf_build* call it with
 * DWARF_INDEX_SHIFT; tests with other sizes. False, and no index (lookups stay correct), when out of memory. */
#define DWARF_INDEX_SHIFT 10
bool dwarf_index_build(unwind_table *t, unsigned shift);

/* The bytes the page index of t takes (0 without one). */
size_t dwarf_index_bytes(const unwind_table *t);

void dwarf_free(unwind_table *t);
size_t dwarf_row_count(const unwind_table *t);
size_t dwarf_fde_count(const unwind_table *t);

/* Runs in signal handlers. The row covering link-time address pc_offset, or NULL when no FDE covers it.
 * For a return address (every frame but the interrupted one) look up pc - 1: the call may be the last
 * instruction of its function, and the next row may belong to another function. */
const unwind_row *dwarf_find(const unwind_table *t, uint64_t pc_offset);

/* Runs in signal handlers. One step from a frame to its caller: CFA = sp or fp + offset, the caller's pc is
 * at CFA-8, its sp is the CFA, its fp is reloaded when the row says where it was saved. read_word reads a
 * word of possibly invalid memory safely (safe_read_word in the agent). False, registers untouched, when the
 * row is unknown/end, a read fails, or the new sp would not be above the old one (a loop guard). */
bool dwarf_step(const unwind_row *row, uintptr_t *pc, uintptr_t *sp, uintptr_t *fp,
                bool (*read_word)(uintptr_t addr, uintptr_t *out));

#endif
