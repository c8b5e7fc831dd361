/*
 * method_target: parse and match `event=pkg.Class.method(descriptor)` targets. The class and the method are
 * split at the last '.' before the descriptor (method names never hold a '.'); '.' and '/' both separate
 * packages. A '*' may end the class or the method name, where it means "any continuation".
 */
#include "method_target.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define ACCEPTED \
    "accepted: pkg.Class.method, pkg.Class.method(JVM descriptor such as (Ljava/lang/String;)V), " \
    "'*' at the end of the class or method name (pkg.Class.*, java.lang.*.<init>, pkg.Class.get*, *.*), " \
    "<init> for constructors"

static int fail(char *err, size_t errlen, const char *text, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int fail(char *err, size_t errlen, const char *text, const char *fmt, ...) {
    char why[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof(why), fmt, ap);
    va_end(ap);
    snprintf(err, errlen, "option 'event=%s': %s; " ACCEPTED, text, why);
    return -1;
}

bool method_target_is_target(const char *event) {
    return event && (strchr(event, '.') || strchr(event, '*'));
}

/* A field type at *p (JVMS 4.3.2); advances past it. */
static bool field_type(const char **p) {
    const char *s = *p;
    while (*s == '[') s++;
    if (*s && strchr("BCDFIJSZ", *s)) {
        *p = s + 1;
        return true;
    }
    if (*s != 'L') return false;
    const char *end = strchr(s, ';');
    if (!end || end == s + 1) return false;
    for (const char *c = s + 1; c < end; c++) {
        if (strchr(".[()<>*", *c) || (*c == '/' && (c == s + 1 || c[1] == ';' || c[1] == '/'))) return false;
    }
    *p = end + 1;
    return true;
}

static bool valid_descriptor(const char *d) {
    if (*d++ != '(') return false;
    while (*d && *d != ')') {
        if (!field_type(&d)) return false;
    }
    if (*d++ != ')') return false;
    if (*d == 'V') return d[1] == 0;
    return field_type(&d) && *d == 0;
}

/* Characters no class or method name may hold (JVMS 4.2), besides the separators handled apart. */
static const char forbidden[] = ";[()<>, ";

static int parse_class(const char *text, const char *cls, size_t len, method_target *t, char *err, size_t errlen) {
    if (len == 0) return fail(err, errlen, text, "no class name before the method");
    if (len >= sizeof(t->class_name)) return fail(err, errlen, text, "the class name is too long");
    t->class_prefix = cls[len - 1] == '*';
    size_t n = t->class_prefix ? len - 1 : len;
    for (size_t i = 0; i < n; i++) {
        char c = cls[i];
        if (c == '*') return fail(err, errlen, text, "'*' is accepted only at the end of the class name");
        if (strchr(forbidden, c)) return fail(err, errlen, text, "'%c' cannot appear in a class name", c);
        bool separator = c == '.' || c == '/';
        /* "java..Foo", ".Foo": an empty package name; "java.*" leaves a separator before the '*'. */
        if (separator && (i == 0 || cls[i - 1] == '.' || cls[i - 1] == '/' || (i + 1 == n && !t->class_prefix)))
            return fail(err, errlen, text, "empty package or class name in '%.*s'", (int)len, cls);
        t->class_name[i] = separator ? '/' : c;
    }
    t->class_name[n] = 0;
    return 0;
}

static int parse_method(const char *text, const char *m, size_t len, method_target *t, char *err, size_t errlen) {
    if (len == 0) return fail(err, errlen, text, "no method name after the class");
    if (len >= sizeof(t->method)) return fail(err, errlen, text, "the method name is too long");
    t->method_prefix = m[len - 1] == '*';
    size_t n = t->method_prefix ? len - 1 : len;
    memcpy(t->method, m, n);
    t->method[n] = 0;
    if (t->method[0] == '<') {
        /* Only the two special names, or a prefix of one of them before a '*'. */
        bool ok = t->method_prefix ? strncmp("<init>", t->method, n) == 0 || strncmp("<clinit>", t->method, n) == 0
                                   : strcmp(t->method, "<init>") == 0 || strcmp(t->method, "<clinit>") == 0;
        if (!ok) return fail(err, errlen, text, "'%.*s' is no method name: the special names are <init> and <clinit>",
                             (int)len, m);
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        if (t->method[i] == '*') return fail(err, errlen, text, "'*' is accepted only at the end of the method name");
        if (strchr(forbidden, t->method[i]) || t->method[i] == '/')
            return fail(err, errlen, text, "'%c' cannot appear in a method name", t->method[i]);
    }
    return 0;
}

int method_target_parse(const char *text, method_target *t, char *err, size_t errlen) {
    memset(t, 0, sizeof(*t));
    if (!text || !*text) return fail(err, errlen, "", "empty target");
    const char *paren = strchr(text, '(');
    size_t head = paren ? (size_t)(paren - text) : strlen(text);
    if (paren) {
        if (strlen(paren) >= sizeof(t->descriptor)) return fail(err, errlen, text, "the descriptor is too long");
        if (!valid_descriptor(paren))
            return fail(err, errlen, text, "'%s' is not a JVM method descriptor such as (ILjava/lang/String;)V", paren);
        strcpy(t->descriptor, paren);
    }
    const char *dot = NULL;
    for (const char *c = text; c < text + head; c++) {
        if (*c == '.') dot = c;
    }
    if (!dot) return fail(err, errlen, text, "a target is a class and a method separated by '.'");
    if (parse_class(text, text, (size_t)(dot - text), t, err, errlen)) return -1;
    if (parse_method(text, dot + 1, (size_t)(text + head - dot - 1), t, err, errlen)) return -1;
    return 0;
}

static bool name_matches(const char *pattern, bool prefix, const char *name) {
    return prefix ? strncmp(name, pattern, strlen(pattern)) == 0 : strcmp(name, pattern) == 0;
}

bool method_target_matches_class(const method_target *t, const char *class_name) {
    return name_matches(t->class_name, t->class_prefix, class_name);
}

bool method_target_matches(const method_target *t, const char *class_name, const char *method,
                           const char *descriptor) {
    return method_target_matches_class(t, class_name) && name_matches(t->method, t->method_prefix, method) &&
           (!t->descriptor[0] || strcmp(t->descriptor, descriptor) == 0);
}
