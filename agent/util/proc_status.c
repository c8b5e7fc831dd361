/* proc_status: see proc_status.h. */
#include "proc_status.h"

#include <stdio.h>
#include <string.h>

bool proc_status_field(const char *path, const char *key, char *value, size_t len) {
    FILE *f = fopen(path, "re");
    if (!f) return false;
    char line[256];
    size_t key_len = strlen(key);
    bool found = false;
    while (!found && fgets(line, sizeof(line), f)) {
        if (strncmp(line, key, key_len) != 0 || line[key_len] != ':') continue;
        const char *v = line + key_len + 1;
        v += strspn(v, " \t");
        snprintf(value, len, "%.*s", (int)strcspn(v, "\n"), v);
        found = true;
    }
    fclose(f);
    return found;
}
