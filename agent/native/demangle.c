/*
 * demangle: a thin layer over __cxa_demangle. Declared here rather than through <cxxabi.h> because this is C;
 * the symbol comes from libstdc++, linked explicitly.
 */
#include "demangle.h"

#include <stdlib.h>
#include <string.h>

extern char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

bool demangle(const char *mangled, char *out, size_t outlen) {
    /* Only _Z names: __cxa_demangle would also "demangle" plain C names that look like type encodings
     * ("i" -> "int"). */
    if (!mangled || strncmp(mangled, "_Z", 2) != 0 || outlen == 0) return false;
    int status = 0;
    char *d = __cxa_demangle(mangled, NULL, NULL, &status);
    if (status != 0 || !d) {
        free(d);
        return false;
    }
    size_t n = strlen(d);
    if (n >= outlen) n = outlen - 1;
    memcpy(out, d, n);
    out[n] = 0;
    free(d);
    return true;
}

/* Strips a trailing word from name[0..*end) when it is one of the qualifiers that follow a parameter list. */
static bool strip_qualifier(const char *name, size_t *end) {
    static const char *const words[] = {" const", " volatile", " &&", " &", " noexcept", " transaction_safe"};
    for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
        size_t w = strlen(words[i]);
        if (*end >= w && strncmp(name + *end - w, words[i], w) == 0) {
            *end -= w;
            return true;
        }
    }
    return false;
}

void demangle_strip_params(char *name) {
    size_t end = strlen(name);
    /* Keep GCC's clone suffixes (" [clone .cold]", possibly several) aside and put them back after. */
    char *clone = strstr(name, " [clone ");
    size_t clone_at = clone ? (size_t)(clone - name) : end;
    end = clone_at;
    while (strip_qualifier(name, &end)) {
    }
    if (end == 0 || name[end - 1] != ')') return;
    /* Match the closing parenthesis back to its opening one. */
    int depth = 0;
    size_t i = end;
    while (i > 0) {
        char c = name[--i];
        if (c == ')') depth++;
        else if (c == '(' && --depth == 0) break;
    }
    if (depth != 0 || i == 0) return;  /* unbalanced, or nothing before the list: leave the name alone */
    memmove(name + i, name + clone_at, strlen(name + clone_at) + 1);
}

/* Length of one piece of a GCC clone suffix at s (".isra", ".0", ...), 0 when s does not start one.
 * Digits alone only follow a kind: "x.1" is how GCC names a local static, not a clone. */
static size_t clone_piece(const char *s, bool digits_ok) {
    static const char *const kinds[] = {"isra", "part", "cold", "constprop", "lto_priv", "localalias", "clone"};
    if (s[0] != '.') return 0;
    size_t n = strspn(s + 1, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
    if (n == 0) return 0;
    if (strspn(s + 1, "0123456789") == n) return digits_ok ? n + 1 : 0;
    for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
        if (strlen(kinds[i]) == n && strncmp(s + 1, kinds[i], n) == 0) return n + 1;
    }
    return 0;
}

/* True when everything from s to the end is clone pieces, the first a kind. */
static bool is_clone_suffix(const char *s) {
    size_t n = clone_piece(s, false);
    if (!n) return false;
    while (s[n]) {
        size_t more = clone_piece(s + n, true);
        if (!more) return false;
        n += more;
    }
    return true;
}

void demangle_strip_clones(char *name) {
    char *c;
    while ((c = strstr(name, " [clone .")) != NULL) {
        char *end = strchr(c, ']');
        if (!end) break;
        memmove(c, end + 1, strlen(end + 1) + 1);
    }
    /* A C identifier holds no dot, so a suffix made only of clone pieces is the compiler's. */
    for (char *dot = strchr(name, '.'); dot; dot = strchr(dot + 1, '.')) {
        if (dot != name && is_clone_suffix(dot)) {
            *dot = 0;
            return;
        }
    }
}

bool demangle_function(const char *mangled, char *out, size_t outlen) {
    if (!demangle(mangled, out, outlen)) return false;
    demangle_strip_params(out);
    return true;
}
