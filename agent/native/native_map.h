/*
 * native_map: the native objects (executable, shared libraries) mapped into this process, from
 * /proc/self/maps, each with its load bias, symbol table and unwind table. The address -> name half of
 * native frames, and the "is this pc in an ELF object, and how do I unwind it" half of the stack walker.
 *
 * native_map_refresh reads /proc/self/maps again and loads only objects it has not seen, so a library
 * dlopen'ed after start is named at the next refresh (the dump refreshes first; JVMTI callbacks may too).
 * Objects are never unloaded from the map: a pc sampled before a dlclose still gets its name.
 *
 * Refresh and naming allocate and read files: never from signal handlers. native_map_contains,
 * native_map_unwind, native_map_object_unwind, native_map_step and native_map_lookup are
 * async-signal-safe (signal/native_map_lookup.c explains how).
 *
 * Only ELF objects are in the map (and the vDSO): anonymous executable memory (the JVM's code heap), memfd
 * and shared-memory code, and executable mappings of files that are not ELF are left out, so "not in the
 * map" means generated code to the walker.
 */
#ifndef LIBPROF_NATIVE_MAP_H
#define LIBPROF_NATIVE_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dwarf.h"
#include "symtab.h"

/* One native object. Immutable once published. */
typedef struct {
    const char *path;           /* as in /proc/self/maps ("[vdso]" for the vDSO) */
    const char *name;           /* the file name part, of the real file: "libz.so.1.2.13" */
    uintptr_t bias;             /* run-time address = link-time address + bias (see elf_reader.h) */
    uintptr_t text_start;       /* [text_start, text_end): its executable mapping (the first one, in the */
    uintptr_t text_end;         /* rare objects with several) */
    const symtab *symbols;      /* NULL when the file could not be read */
    const unwind_table *unwind; /* NULL when the file could not be read or has no .eh_frame */
} native_object;

/* Re-reads /proc/self/maps (native_map_refresh_from: a file in the same format, for tests). Returns the number of objects newly
 * loaded, or -1 when the maps file cannot be read. Serialized internally; may be called from any thread. */
int native_map_refresh(void);
int native_map_refresh_from(const char *maps_path);

/* Runs in signal handlers. True when pc is inside an executable mapping of a known object. The walker takes
 * "in no object" as the sign that it reached JVM-generated code (or code of unknown origin). */
bool native_map_contains(uintptr_t pc);

/* Runs in signal handlers. The unwind row for pc (a return address should be passed as pc - 1), or NULL
 * when its object is unknown or no FDE covers it. */
const unwind_row *native_map_unwind(uintptr_t pc);
/* The same for an object native_map_lookup found already (NULL: none), so a walker looks pc up once. */
const unwind_row *native_map_object_unwind(const native_object *o, uintptr_t pc);

/* Runs in signal handlers. The unwind row for pc (a return address should be passed as pc - 1) copied to
 * *out, through a cache of recent pcs (unwind_cache.h): NATIVE_ROW; NATIVE_NO_ROW when pc is in a known
 * object that no FDE covers there; NATIVE_NO_OBJECT when pc is in no known object. */
typedef enum { NATIVE_NO_OBJECT, NATIVE_NO_ROW, NATIVE_ROW } native_row_found;
native_row_found native_map_row(uintptr_t pc, unwind_row *out);

/* Runs in signal handlers. One DWARF step from the frame (pc, sp, fp) to its caller: native_map_row then
 * dwarf_step. leaf: pc is the interrupted instruction; otherwise it is a return address and pc - 1 is looked
 * up. False, registers untouched, when pc has no usable row or the step fails. */
bool native_map_step(uintptr_t *pc, uintptr_t *sp, uintptr_t *fp, bool leaf,
                     bool (*read_word)(uintptr_t addr, uintptr_t *out));

/* Runs in signal handlers. The object whose executable mapping contains pc, or NULL. */
const native_object *native_map_lookup(uintptr_t pc);

/* Dump path. Names pc: the demangled function without its parameter list ("deflate",
 * "CompileBroker::compiler_thread_loop"); when the object has no symbol there, the object's file name alone
 * ("libfoo.so": one frame per library rather than one per address, so flame graphs stay readable).
 * *library_basename (may be NULL) gets the object's file name. False when pc is in no known object. */
bool native_map_name(uintptr_t pc, char *buf, size_t len, const char **library_basename);

/* Totals for logs and benchmarks. */
/* The run-time address of the first function whose symbol (as the object spells it, mangled) begins with
 * 'prefix', in the objects known at the last refresh, with the object's file name in *object (may be NULL). */
bool native_map_find_function(const char *prefix, uintptr_t *addr, const char **object);

typedef struct {
    size_t objects;
    size_t symbols;
    size_t unwind_rows;
} native_map_stats;
native_map_stats native_map_get_stats(void);

#endif
