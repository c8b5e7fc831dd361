#include "filepath.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long sequence;   /* %n: the loop's period number (filepath_set_sequence) */

void filepath_set_sequence(unsigned long n) {
    sequence = n;
}

/* %n{MAX} (p at 'n'): the sequence modulo MAX; %n alone: the sequence. Returns the characters read after
 * the '%', or 0 when {MAX} is not a whole number from 1 to 1000000. */
static size_t expand_sequence(const char *p, char *piece, size_t len) {
    unsigned long max = 0;
    size_t used = 1;
    if (p[1] == '{') {
        char *end;
        max = strtoul(p + 2, &end, 10);
        if (end == p + 2 || *end != '}' || max < 1 || max > 1000000 || p[2] < '0' || p[2] > '9') return 0;
        used = (size_t)(end - p) + 1;
    }
    snprintf(piece, len, "%lu", max ? sequence % max : sequence);
    return used;
}

/* %{NAME} (p at '{'): the environment variable's value. Returns the characters read after the '%', or 0
 * when the name is not [A-Za-z0-9_]+ closed by '}', the variable is not set, or its value holds '/' or is
 * '.' or '..' (err says which). */
static size_t expand_env(const char *pattern, const char *p, char *piece, size_t len, char *err, size_t errlen) {
    size_t n = strspn(p + 1, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_");
    if (n == 0 || n >= 128 || p[1 + n] != '}') {
        snprintf(err, errlen, "file=%s: '%%{' must name an environment variable: %%{NAME}, letters, digits and _",
                 pattern);
        return 0;
    }
    char name[128];
    memcpy(name, p + 1, n);
    name[n] = 0;
    const char *value = getenv(name);
    if (!value) {
        snprintf(err, errlen, "file=%s: environment variable %s is not set", pattern, name);
        return 0;
    }
    /* A variable fills one part of a name: with a '/' or as '.' or '..' it would move the file elsewhere. */
    if (strchr(value, '/') || strcmp(value, ".") == 0 || strcmp(value, "..") == 0) {
        snprintf(err, errlen, "file=%s: environment variable %s is '%s': a %%{NAME} must not hold '/' or be '.' or "
                 "'..' (it fills one part of a file name, not a path)", pattern, name, value);
        return 0;
    }
    snprintf(piece, len, "%s", value);
    return n + 2;
}

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
        char piece[1024];
        size_t used;
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
        } else if (p[1] == 'n' && (used = expand_sequence(p + 1, piece, sizeof(piece))) != 0) {
            p += used;
        } else if (p[1] == '{') {
            if ((used = expand_env(pattern, p + 1, piece, sizeof(piece), err, errlen)) == 0) return -1;
            p += used;
        } else {
            snprintf(err, errlen, "file=%s: unknown pattern '%%%.1s'; accepted: %%p (pid), %%t (timestamp), %%n "
                     "(loop sequence), %%n{MAX} (sequence modulo MAX, 1 to 1000000), %%{NAME} (environment variable), "
                     "%%%% (a '%%')", pattern, p[1] ? p + 1 : "");
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
