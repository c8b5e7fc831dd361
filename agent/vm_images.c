#include "vm_images.h"

#include "safe_read.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static bool ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

int vm_images_is_vm_file(const char *path) {
    return ends_with(path, "/libjvm.so") || ends_with(path, ".jsa");
}

int vm_images_register(void) {
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
        bool wanted = perms[0] == 'r' && vm_images_is_vm_file(path);
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
