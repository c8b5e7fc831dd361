#include "tid_bitmap.h"

#include <stdio.h>
#include <sys/mman.h>

_Atomic uint64_t *tid_bitmap_map(size_t *count) {
    size_t pid_max = 4194304;  /* the kernel's upper limit, if pid_max cannot be read */
    FILE *f = fopen("/proc/sys/kernel/pid_max", "r");
    if (f) {
        unsigned long v;
        if (fscanf(f, "%lu", &v) == 1 && v > 0 && v <= 4194304) pid_max = v;
        fclose(f);
    }
    size_t bytes = (pid_max + 63) / 64 * sizeof(uint64_t);
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) return NULL;
    *count = pid_max;
    return p;
}
