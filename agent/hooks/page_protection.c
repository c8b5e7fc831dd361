#include "page_protection.h"

#include <fcntl.h>
#include <linux/ioctl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

/* The query of /proc/<pid>/maps by address (include/uapi/linux/fs.h, Linux 6.11), which the C library's
 * headers here predate. */
struct procmap_query_args {
    uint64_t size;
    uint64_t query_flags;
    uint64_t query_addr;
    uint64_t vma_start, vma_end, vma_flags, vma_page_size, vma_offset, inode;
    uint32_t dev_major, dev_minor, vma_name_size, build_id_size;
    uint64_t vma_name_addr, build_id_addr;
};
_Static_assert(sizeof(struct procmap_query_args) == 104, "struct procmap_query is 104 bytes");
#define PROCMAP_QUERY_IOCTL _IOWR('f', 17, struct procmap_query_args)
#define PROCMAP_VMA_READABLE 0x01
#define PROCMAP_VMA_WRITABLE 0x02
#define PROCMAP_VMA_EXECUTABLE 0x04

static int query(int fd, uintptr_t addr) {
    struct procmap_query_args q;
    memset(&q, 0, sizeof(q));
    q.size = sizeof(q);
    q.query_addr = addr;
    if (ioctl(fd, PROCMAP_QUERY_IOCTL, &q) != 0 || addr < q.vma_start || addr >= q.vma_end) return -1;
    return (q.vma_flags & PROCMAP_VMA_READABLE ? PROT_READ : 0) | (q.vma_flags & PROCMAP_VMA_WRITABLE ? PROT_WRITE : 0) |
           (q.vma_flags & PROCMAP_VMA_EXECUTABLE ? PROT_EXEC : 0);
}

bool page_protections_live(page_protections *p) {
    memset(p, 0, sizeof(*p));
    p->query_fd = -1;
    int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    /* Asked about its own code: an answer says the kernel knows the query. */
    if (query(fd, (uintptr_t)&page_protections_live) < 0) {
        close(fd);
        return false;
    }
    p->query_fd = fd;
    return true;
}

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
    p->query_fd = -1;
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
    if (p->query_fd >= 0) return query(p->query_fd, addr);
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
    if (p->query_fd >= 0) close(p->query_fd);
    p->query_fd = -1;
}
