/* Test helper: where a library is mapped in the test process itself, from /proc/self/maps. */
#ifndef TEST_MAPS_H
#define TEST_MAPS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The path, start and file offset of the first executable mapping whose file name starts with prefix. */
static inline bool test_maps_find(const char *prefix, char *path, size_t len, uint64_t *start,
                                  uint64_t *offset) {
    FILE *f = fopen("/proc/self/maps", "r");
    char line[4096];
    bool found = false;
    while (f && !found && fgets(line, sizeof(line), f)) {
        unsigned long s, e, off, inode;
        char perms[5], file[3000] = "";
        if (sscanf(line, "%lx-%lx %4s %lx %*s %lu %2999s", &s, &e, perms, &off, &inode, file) < 6) continue;
        const char *base = strrchr(file, '/');
        if (perms[2] != 'x' || !base || strncmp(base + 1, prefix, strlen(prefix)) != 0) continue;
        snprintf(path, len, "%s", file);
        *start = s;
        *offset = off;
        found = true;
    }
    if (f) fclose(f);
    return found;
}

#endif
