/*
 * symtab: the function symbols of one object (or of the kernel) as a sorted array of (start, size, name)
 * with binary search. Names live in one string block owned by the table. Built at load or dump time (it
 * allocates); a finished table is immutable, so concurrent lookups need no lock.
 *
 * Addresses are whatever the builder was given: link-time addresses for an ELF object (the caller
 * subtracts the load bias first), absolute addresses for the kernel.
 */
#ifndef LIBPROF_SYMTAB_H
#define LIBPROF_SYMTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct symtab symtab;
typedef struct symtab_builder symtab_builder;

symtab_builder *symtab_builder_new(void);

/* Aliases at one address are reduced to one name: the one with the fewest leading '_', then the highest
 * rank (for ELF the symbol binding, ELF_BIND_*), then the first added. A size of 0 means "unknown". */
void symtab_builder_add(symtab_builder *b, uint64_t start, uint64_t size, const char *name, int rank);

/* Sorts and freezes the table and frees the builder. A symbol of unknown size is taken to extend to the
 * next symbol's start, but at most fill_limit bytes (0: such symbols match only their first byte).
 * Returns NULL only when out of memory (an empty table is valid). */
symtab *symtab_builder_finish(symtab_builder *b, uint64_t fill_limit);

void symtab_free(symtab *t);
size_t symtab_count(const symtab *t);

/* The symbol containing vaddr, or NULL. *offset_in_symbol (may be NULL) gets vaddr - start. */
const char *symtab_find(const symtab *t, uint64_t vaddr, uint64_t *offset_in_symbol);

/* The start address of the symbol with exactly this name, for tests and diagnostics (linear). */
bool symtab_lookup_name(const symtab *t, const char *name, uint64_t *start);

/* The start of the first symbol whose name begins with 'prefix' and is not a compiler's clone of a function
 * (no '.': "f.cold", "f.isra.0"), in address order (linear). */
bool symtab_lookup_prefix(const symtab *t, const char *prefix, uint64_t *start);

struct elf_image;

/* The same from an image already open (path is where it was opened from, for the debug file search). */
symtab *symtab_from_elf(const struct elf_image *img, const char *path, const char *debug_root,
                        bool *from_debug_file);

/* All function symbols of the ELF file at path: its .symtab, or its separate debug file's (see
 * elf_debug_open, debug_root NULL = /usr/lib/debug), else its .dynsym. NULL and err set when the file cannot
 * be read. *from_debug_file (may be NULL) tells whether the debug file was used. */
symtab *symtab_load_elf(const char *path, const char *debug_root, bool *from_debug_file, char *err,
                        size_t errlen);

#endif
