/*
 * elf_debug: finding the separate debug file of a stripped object (Debian's -dbg/-dbgsym packages put the
 * full .symtab there). The places searched are the ones GDB documents: the build-id tree first (exact by
 * construction), then the .gnu_debuglink name next to the object, in its .debug/ subdirectory and under
 * the global debug root. We do not check the debuglink CRC (it would mean reading the whole debug file);
 * the build-id comparison catches the realistic mistake, a debug file from another package version.
 */
#define _GNU_SOURCE
#include "elf_reader.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static bool same_build_id(const elf_image *a, const elf_image *b) {
    const uint8_t *ida, *idb;
    size_t la, lb;
    bool ha = elf_build_id(a, &ida, &la), hb = elf_build_id(b, &idb, &lb);
    if (!ha || !hb) return true;  /* nothing to compare: accept, as GDB does without a CRC */
    return la == lb && memcmp(ida, idb, la) == 0;
}

static elf_image *try_debug(const elf_image *img, const char *candidate, const char *path) {
    if (strcmp(candidate, path) == 0 || access(candidate, R_OK) != 0) return NULL;
    elf_image *dbg = elf_open(candidate, NULL, 0);
    if (dbg && (!same_build_id(img, dbg) || !elf_has_symtab(dbg))) {
        elf_close(dbg);
        dbg = NULL;
    }
    return dbg;
}

elf_image *elf_debug_open(const elf_image *img, const char *path, const char *root) {
    if (!root) root = "/usr/lib/debug";
    char candidate[PATH_MAX];
    const uint8_t *id;
    size_t len;
    if (elf_build_id(img, &id, &len) && len >= 2 && len <= 64) {
        char hex[2 * 64 + 1];
        for (size_t i = 0; i < len; i++) snprintf(hex + 2 * i, 3, "%02x", id[i]);
        if (snprintf(candidate, sizeof(candidate), "%s/.build-id/%.2s/%s.debug", root, hex, hex + 2) <
            (int)sizeof(candidate)) {
            elf_image *dbg = try_debug(img, candidate, path);
            if (dbg) return dbg;
        }
    }
    const char *link = elf_debuglink(img);
    if (!link || strchr(link, '/')) return NULL;
    /* dir: the object's directory without its trailing slash ("" for a file in /). */
    const char *slash = strrchr(path, '/');
    int dirlen = slash ? (int)(slash - path) : 0;
    const char *formats[] = {"%.*s/%s", "%.*s/.debug/%s"};
    for (size_t i = 0; i < 2 && slash; i++) {
        if (snprintf(candidate, sizeof(candidate), formats[i], dirlen, path, link) >= (int)sizeof(candidate))
            continue;
        elf_image *dbg = try_debug(img, candidate, path);
        if (dbg) return dbg;
    }
    if (slash && snprintf(candidate, sizeof(candidate), "%s%.*s/%s", root, dirlen, path, link) <
                     (int)sizeof(candidate))
        return try_debug(img, candidate, path);
    return NULL;
}
