/*
 * elf_reader: reads one ELF64 file of the architecture built for (arch.h) for the address -> symbol and
 * unwind-table code (symtab, dwarf, native_map). Dump path and load time only, never signal handlers: it opens files and allocates.
 *
 * The file is mapped read-only and every offset, size and string index taken from it is checked against
 * the mapping before use, so a crafted, truncated or corrupted file gives an error or fewer symbols, never
 * a crash or an endless loop (every loop is bounded by a count read from the file and checked against its
 * size). Our own reader rather than libelf: we need only a few read-only accessors over a mapping, and
 * libelf would copy and allocate per section for no gain here.
 *
 * Named elf_reader, not elf: agent/ is on the include path, and a header called elf.h would hide the system
 * <elf.h> from every file that includes it directly or through <link.h>.
 *
 * Load bias. A PT_LOAD segment with file offset p_offset is linked to run at p_vaddr. The dynamic loader
 * maps it at p_vaddr + bias, so a /proc/self/maps line "start-end ... offset ... path" for that segment gives
 *     bias = start - (p_vaddr + (offset - p_offset))
 * (offset and start are page-aligned copies of p_offset and p_vaddr + bias, and p_vaddr - p_offset is the
 * same modulo the page size, so the formula holds even when the mapping begins before p_offset). Then every
 * link-time address (symbol value, FDE pc) is at run-time address vaddr + bias. For an executable linked
 * at a fixed address the bias is 0.
 */
#ifndef LIBPROF_ELF_READER_H
#define LIBPROF_ELF_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct elf_image elf_image;

typedef struct {
    uint64_t vaddr;   /* p_vaddr */
    uint64_t offset;  /* p_offset */
    uint64_t filesz;  /* p_filesz */
    uint64_t memsz;   /* p_memsz */
    uint32_t flags;   /* PF_X, PF_W, PF_R */
} elf_segment;

/* A section's bytes inside the mapping. addr is sh_addr: needed to resolve pc-relative pointers. */
typedef struct {
    const uint8_t *data;
    size_t size;
    uint64_t addr;
} elf_section;

/* Symbol binding as ranked by elf_for_each_function: prefer global names over weak over local. */
enum { ELF_BIND_LOCAL = 0, ELF_BIND_WEAK = 1, ELF_BIND_GLOBAL = 2 };

/* NULL and a message in err when the file cannot be read or is not a little-endian ELF64 file of this architecture. */
elf_image *elf_open(const char *path, char *err, size_t errlen);
/* The same over bytes already in memory (the vDSO, fuzzing), which must outlive the image; name is only
 * for messages and elf_path. */
elf_image *elf_open_bytes(const char *name, const void *data, size_t size, char *err, size_t errlen);

void elf_close(elf_image *img);

const char *elf_path(const elf_image *img);

/* The PT_LOAD segments in file order. */
const elf_segment *elf_segments(const elf_image *img, size_t *count);

/* Computes the bias (see the top of this file) for a mapping of this file at map_start from file offset
 * map_offset. False when no PT_LOAD segment covers that offset. */
bool elf_load_bias(const elf_image *img, uint64_t map_start, uint64_t map_offset, uint64_t *bias);

/* The GNU build-id note, from a PT_NOTE segment or a SHT_NOTE section. False when there is none. */
bool elf_build_id(const elf_image *img, const uint8_t **id, size_t *len);

/* The file name in .gnu_debuglink (NUL-terminated inside the mapping), or NULL. */
const char *elf_debuglink(const elf_image *img);

/* A section by name with its bytes in the file; false when missing, SHT_NOBITS or out of the file. */
bool elf_section_by_name(const elf_image *img, const char *name, elf_section *out);

/* .eh_frame_hdr (found through PT_GNU_EH_FRAME, else by section name) and .eh_frame (by section name,
 * else through the pointer in .eh_frame_hdr). False when missing. */
bool elf_eh_frame_hdr(const elf_image *img, elf_section *out);
bool elf_eh_frame(const elf_image *img, elf_section *out);

/* The bytes of the file that the link-time range [vaddr, vaddr+size) was loaded from, or NULL. */
const uint8_t *elf_vaddr_data(const elf_image *img, uint64_t vaddr, size_t size);

/* True when the file has a non-empty .symtab (a separate debug file is then not needed). */
bool elf_has_symtab(const elf_image *img);

/* The link-time address of the defined symbol 'name' (any type: a function or a variable) in .symtab, else
 * .dynsym. */
bool elf_symbol_value(const elf_image *img, const char *name, uint64_t *vaddr);

typedef void (*elf_symbol_fn)(void *ctx, uint64_t vaddr, uint64_t size, const char *name, int binding);

/* Calls fn for every function symbol of .symtab, or of .dynsym when there is no .symtab: STT_FUNC and
 * STT_GNU_IFUNC, and STT_NOTYPE with a size in an executable section (hand-written assembly). Skips
 * undefined, absolute and empty-named symbols. Returns the number of calls. */
size_t elf_for_each_function(const elf_image *img, elf_symbol_fn fn, void *ctx);

/* Finds and opens the separate debug file of img (which was opened from 'path'): by build-id as
 * <root>/.build-id/xx/rest.debug, then by .gnu_debuglink as <dir>/name, <dir>/.debug/name and
 * <root><dir>/name. root NULL means /usr/lib/debug. A candidate whose build-id differs from img's is
 * rejected. NULL when none is found. */
elf_image *elf_debug_open(const elf_image *img, const char *path, const char *root);

#endif
