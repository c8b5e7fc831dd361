/*
 * page_protection: the protection of the process's pages as /proc/self/maps lists them, read once into a
 * table. The kernel has no call that reports a page's protection; got_patch needs it to tell an object the
 * loader is still relocating (its RELRO pages still writable) from one it finished, and to put a page back
 * exactly as it found it after a write.
 *
 * Not signal-safe (reads a file, allocates).
 */
#ifndef LIBPROF_PAGE_PROTECTION_H
#define LIBPROF_PAGE_PROTECTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    uintptr_t start, end;
    int prot;   /* PROT_READ | PROT_WRITE | PROT_EXEC */
} page_mapping;

typedef struct {
    page_mapping *mappings;   /* in address order, as the kernel lists them */
    size_t count;
    int query_fd;             /* >= 0: asked of the kernel at each lookup (page_protections_live), nothing read */
} page_protections;

/* Reads 'maps_path' (/proc/self/maps, or a file in its format for tests). False when it cannot be read. */
bool page_protections_read(page_protections *p, const char *maps_path);

/* Where the kernel answers PROCMAP_QUERY on /proc/self/maps (Linux 6.11 and later): each lookup asks it about
 * one address, as things are at that moment, instead of reading the whole file. False where it does not. */
bool page_protections_live(page_protections *p);

/* The protection of the page holding 'addr', or -1 when no mapping holds it (or the kernel did not say). */
int page_protections_of(const page_protections *p, uintptr_t addr);

void page_protections_free(page_protections *p);

#endif
