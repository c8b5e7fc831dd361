#include "page_protection.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static bool append(page_protections *p, size_t *capacity, page_mapping m) {
    if (p->count == *capacity) {
        size_t grown = *capacity ? *capacity * 2 : 256;
        page_mapping *bigger = realloc(p->mappings, grown * sizeof(*bigger));
        if (!bigger) return false;
        p->mappings = bigger;
        *capacity = grown;
    }
    p->mappings[p->count++] = m;
    return true;
}

bool page_protections_read(page_protections *p, const char *maps_path) {
    memset(p, 0, sizeof(*p));
    FILE *maps = fopen(maps_path, "re");
    if (!maps) return false;
    size_t capacity = 0;
    bool ok = true;
    char line[512];
    while (ok && fgets(line, sizeof(line), maps)) {
        /* A path longer than the buffer continues on the next read, which is no "start-end perms" line. */
        size_t n = strlen(line);
        bool whole = n > 0 && line[n - 1] == '\n';
        unsigned long start, end;
        char perms[5];
        if (sscanf(line, "%lx-%lx %4s", &start, &end, perms) == 3 && end > start && strlen(perms) == 4) {
            int prot = (perms[0] == 'r' ? PROT_READ : 0) | (perms[1] == 'w' ? PROT_WRITE : 0) |
                       (perms[2] == 'x' ? PROT_EXEC : 0);
            ok = append(p, &capacity, (page_mapping){start, end, prot});
        }
        while (ok && !whole && fgets(line, sizeof(line), maps)) {
            n = strlen(line);
            whole = n > 0 && line[n - 1] == '\n';
        }
    }
    fclose(maps);
    if (!ok) page_protections_free(p);
    return ok;
}

int page_protections_of(const page_protections *p, uintptr_t addr) {
    size_t lo = 0, hi = p->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (addr < p->mappings[mid].start) hi = mid;
        else if (addr >= p->mappings[mid].end) lo = mid + 1;
        else return p->mappings[mid].prot;
    }
    return -1;
}

void page_protections_free(page_protections *p) {
    free(p->mappings);
    p->mappings = NULL;
    p->count = 0;
}
