#define _GNU_SOURCE
#include "collapsed_read.h"

#include <stdlib.h>
#include <string.h>

frame_type collapsed_guess_type(const char *name) {
    size_t n = strlen(name);
    if (n && name[0] == '[' && name[n - 1] == ']') return strstr(name, "tid=") ? FTYPE_THREAD : FTYPE_MARKER;
    /* The 'ann' suffixes (frame_type_java_suffix): kernel, and the Java execution types. */
    static const struct { const char *suffix; frame_type type; } suffixes[] = {
        {"_[k]", FTYPE_KERNEL}, {"_[0]", FTYPE_INTERPRETED}, {"_[1]", FTYPE_C1}, {"_[j]", FTYPE_JIT},
        {"_[i]", FTYPE_INLINED},
    };
    for (size_t i = 0; n > 4 && i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
        if (strcmp(name + n - 4, suffixes[i].suffix) == 0) return suffixes[i].type;
    }
    if (strpbrk(name, "./") && !strstr(name, "::")) return FTYPE_JAVA;
    return FTYPE_NATIVE;
}

/* One line "a;b;c 123": the count after the last space. */
static int add_line(profile *p, char *line, uint32_t **ids, size_t *cap) {
    char *space = strrchr(line, ' '), *end;
    if (!space) return -1;
    *space = 0;
    uint64_t value = strtoull(space + 1, &end, 10);
    if (end == space + 1 || *end) return -1;
    size_t depth = 0;
    char *save = NULL;
    for (char *f = strtok_r(line, ";", &save); f; f = strtok_r(NULL, ";", &save)) {
        if (depth == *cap) {
            size_t grown_cap = *cap ? *cap * 2 : 256;
            uint32_t *grown = realloc(*ids, grown_cap * sizeof(uint32_t));
            if (!grown) return -1;
            *ids = grown;
            *cap = grown_cap;
        }
        (*ids)[depth] = profile_intern(p, f, collapsed_guess_type(f));
        if ((*ids)[depth++] == UINT32_MAX) return -1;
    }
    return profile_add(p, *ids, (uint32_t)depth, value, value);
}

int collapsed_read(FILE *in, const char *name, profile *p, char *err, size_t errlen) {
    char *line = NULL;
    size_t len = 0, cap = 0;
    uint32_t *ids = NULL;
    ssize_t n;
    int rc = 0;
    for (unsigned long number = 1; rc == 0 && (n = getline(&line, &len, in)) > 0; number++) {
        if (line[n - 1] == '\n') line[--n] = 0;
        if (n && line[n - 1] == '\r') line[--n] = 0;
        if (n && add_line(p, line, &ids, &cap)) {
            snprintf(err, errlen, "%s:%lu: not a collapsed stack (frames separated by ';', a space, a count)",
                     name, number);
            rc = -1;
        }
    }
    free(line);
    free(ids);
    return rc;
}
