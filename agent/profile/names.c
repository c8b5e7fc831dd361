#include "names.h"

#include <stdio.h>
#include <string.h>

/* The class part of a type signature: "Ljava/util/Map$Entry;" -> "java/util/Map$Entry". */
static void class_name(char *out, size_t len, const char *sig, names_style style) {
    const char *start = sig;
    size_t n = strlen(sig);
    if (n >= 2 && sig[0] == 'L' && sig[n - 1] == ';') {
        start = sig + 1;
        n -= 2;
    }
    if (style.simple) {
        /* The package ends at the last '/' before any '$', so hidden classes such as
         * "pkg/Main$$Lambda$14/0x0000000800c03000" keep their own '/' suffix. */
        const char *dollar = memchr(start, '$', n);
        size_t scan = dollar ? (size_t)(dollar - start) : n;
        for (size_t i = scan; i-- > 0;) {
            if (start[i] == '/') {
                n -= i + 1;
                start += i + 1;
                break;
            }
        }
    }
    if (n >= len) n = len - 1;
    memcpy(out, start, n);
    out[n] = 0;
    if (style.dot) {
        for (char *c = out; *c; c++) {
            if (*c == '/' && !(c[1] == '0' && c[2] == 'x')) *c = '.';
        }
    }
}

void names_java_method(char *buf, size_t len, const char *class_sig, const char *method,
                       const char *method_sig, names_style style) {
    char cls[1024];
    class_name(cls, sizeof(cls), class_sig, style);
    snprintf(buf, len, "%s.%s%s%s", cls, method, style.sig && method_sig ? method_sig : "",
             style.ann ? "_[j]" : "");
    if (style.dot && style.sig && method_sig) {
        /* Class names inside the descriptor follow the same spelling. */
        for (char *c = buf + strlen(cls) + 1 + strlen(method); *c; c++) {
            if (*c == '/') *c = '.';
        }
    }
}

void names_thread(char *buf, size_t len, const char *thread_name, int tid) {
    if (thread_name && thread_name[0]) snprintf(buf, len, "[%s tid=%d]", thread_name, tid);
    else snprintf(buf, len, "[tid=%d]", tid);
}

bool names_match(const char *pattern, const char *name) {
    size_t pn = strlen(pattern), nn = strlen(name);
    bool star_start = pn > 0 && pattern[0] == '*';
    bool star_end = pn > 1 && pattern[pn - 1] == '*';
    const char *core = pattern + star_start;
    size_t cn = pn - star_start - star_end;
    if (star_start && star_end) {
        char needle[512];
        if (cn >= sizeof(needle)) return false;
        memcpy(needle, core, cn);
        needle[cn] = 0;
        return strstr(name, needle) != NULL;
    }
    if (star_start) return nn >= cn && memcmp(name + nn - cn, core, cn) == 0;
    if (star_end) return nn >= cn && memcmp(name, core, cn) == 0;
    return strcmp(pattern, name) == 0;
}

void names_fputs_escaped(const char *name, const char *also, FILE *out) {
    for (const unsigned char *c = (const unsigned char *)name; *c; c++) {
        if (*c == '\\') fputs("\\\\", out);
        else if (*c == '\n') fputs("\\n", out);
        else if (*c == '\r') fputs("\\r", out);
        else if (*c == '\t') fputs("\\t", out);
        else if (*c < 0x20 || *c == 0x7f || (also && strchr(also, *c))) fprintf(out, "\\x%02x", *c);
        else fputc(*c, out);
    }
}
