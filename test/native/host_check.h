/*
 * host_check: what the native test programs that drive libprof's C API share: failing with a message
 * (FAIL: ..., exit 1) and a text buffer a command's writer fills. Header-only, for test programs.
 */
#ifndef LIBPROF_HOST_CHECK_H
#define LIBPROF_HOST_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fail(const char *what, const char *detail) {
    printf("FAIL: %s: %s\n", what, detail ? detail : "");
    exit(1);
}

typedef struct {
    char *text;
    size_t len;
} buffer;

/* A libprof_writer: appends the output to the buffer at 'arg', kept NUL-terminated. */
static void collect(const char *buf, size_t size, void *arg) {
    buffer *b = arg;
    char *grown = realloc(b->text, b->len + size + 1);
    if (!grown) fail("out of memory", NULL);
    memcpy(grown + b->len, buf, size);
    b->len += size;
    grown[b->len] = 0;
    b->text = grown;
}

#endif
