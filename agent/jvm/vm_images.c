#include "vm_images.h"

#include "filepath.h"
#include "safe_read.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

bool vm_images_permanent(const char *path, uintptr_t lo, uintptr_t hi, uintptr_t heap_low, uintptr_t heap_high) {
    if (filepath_ends_with(path, "/libjvm.so")) return true;
    if (!filepath_ends_with(path, ".jsa")) return false;
    return heap_high > heap_low && (hi <= heap_low || lo >= heap_high);
}

int vm_images_register(uintptr_t heap_low, uintptr_t heap_high) {
    static bool done;
    if (done) return 0;
    done = true;
    FILE *maps = fopen("/proc/self/maps", "re");
    if (!maps) return -1;
    char line[4096];
    int added = 0;
    uintptr_t low = 0, high = 0;   /* the run of adjacent readable mappings being gathered */
    while (fgets(line, sizeof(line), maps)) {
        unsigned long lo, hi;
        char perms[8], path[4096] = "";
        if (sscanf(line, "%lx-%lx %7s %*s %*s %*s %4095s", &lo, &hi, perms, path) < 3) continue;
        bool wanted = perms[0] == 'r' && vm_images_permanent(path, lo, hi, heap_low, heap_high);
        if (wanted && low && lo == high) {
            high = hi;   /* the next segment of the same image, right after the last */
            continue;
        }
        if (low && safe_read_add_fixed_region(low, high) == 0) added++;
        low = wanted ? lo : 0;
        high = wanted ? hi : 0;
    }
    if (low && safe_read_add_fixed_region(low, high) == 0) added++;
    fclose(maps);
    return added;
}
