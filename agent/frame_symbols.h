/*
 * frame_symbols: the names of native and kernel frames, as every output spells them: the one place that
 * turns a native pc or a kernel address into text. Used by dump (collapsed, text, HTML) and by the JFR
 * writer's constant pools, so a stack reads the same in every format. Dump path only (not for handlers).
 */
#ifndef LIBPROF_FRAME_SYMBOLS_H
#define LIBPROF_FRAME_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Names pc from the object's symbol tables (demangled, no symbol version; "lib`name" with 'lib'), else
 * the dynamic linker's view, else "[0x...]". *cpp (may be NULL) is set for libjvm frames and demangled
 * C++ functions. */
void frame_symbols_native(uintptr_t pc, bool lib, char *name, size_t len, bool *cpp);

/* Names a kernel address from /proc/kallsyms (loaded on first use), else "[kernel 0x...]". No "_[k]". */
void frame_symbols_kernel(uint64_t addr, char *name, size_t len);

#endif
