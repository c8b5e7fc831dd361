/*
 * kallsyms: kernel function names from /proc/kallsyms, for the kernel frames of perf_events call chains.
 * Loaded at start or first dump, looked up at dump time; not for signal handlers.
 *
 * With kptr_restrict (or without CAP_SYSLOG) the kernel shows every address as 0: the table is then
 * "unavailable" and kallsyms_find answers NULL, so the dump falls back to a hex address or "[kernel]".
 * Only text symbols (t, T) are named (the others only end the text symbol before them); a symbol's size
 * is unknown in this format, so it is taken to extend to the next symbol (at most KALLSYMS_MAX_SIZE bytes).
 * Module symbols keep their bare name.
 */
#ifndef LIBPROF_KALLSYMS_H
#define LIBPROF_KALLSYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define KALLSYMS_MAX_SIZE (256 * 1024)

/* Reads path (NULL: /proc/kallsyms) and replaces the table. Returns the number of symbols loaded: 0 when
 * the file is unreadable or all addresses are hidden (kallsyms_available() is then false). */
size_t kallsyms_load(const char *path);

/* The same from text in memory (tests). */
size_t kallsyms_parse(const char *text, size_t len);

bool kallsyms_available(void);

/* The kernel function containing addr, or NULL. Not thread-safe against a concurrent load. */
const char *kallsyms_find(uint64_t addr);

void kallsyms_free(void);

#endif
