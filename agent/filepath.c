#include "filepath.h"

#include <stdio.h>
#include <string.h>

static int append(char *out, size_t outlen, size_t *len, const char *s) {
    size_t n = strlen(s);
    if (*len + n >= outlen) return -1;
    memcpy(out + *len, s, n + 1);
    *len += n;
    return 0;
}

int filepath_expand(const char *pattern, pid_t pid, time_t when, char *out, size_t outlen, char *err,
                    size_t errlen) {
    size_t len = 0;
    out[0] = 0;
    for (const char *p = pattern; *p; p++) {
        char piece[64];
        if (*p != '%') {
            piece[0] = *p;
            piece[1] = 0;
        } else if (p[1] == 'p') {
            snprintf(piece, sizeof(piece), "%d", (int)pid);
            p++;
        } else if (p[1] == 't') {
            struct tm tm;
            localtime_r(&when, &tm);
            strftime(piece, sizeof(piece), "%Y%m%d-%H%M%S", &tm);
            p++;
        } else if (p[1] == '%') {
            strcpy(piece, "%");
            p++;
        } else {
            snprintf(err, errlen, "file=%s: unknown pattern '%%%.1s'; accepted: %%p (pid), %%t (timestamp), %%%% (a '%%')",
                     pattern, p[1] ? p + 1 : "");
            return -1;
        }
        if (append(out, outlen, &len, piece)) {
            snprintf(err, errlen, "file=%s: the expanded path is longer than %zu characters", pattern, outlen - 1);
            return -1;
        }
    }
    return 0;
}

bool filepath_ends_with(const char *path, const char *suffix) {
    size_t n = strlen(path), m = strlen(suffix);
    return n >= m && strcmp(path + n - m, suffix) == 0;
}
