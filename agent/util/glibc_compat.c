/*
 * glibc_compat: stand-ins for the glibc functions newer than glibc 2.17 that libprof calls, linked into the
 * portable build only (cmake/portable.cmake), where the linker's --wrap sends each call of the ordinary
 * name here; the developer build calls glibc's own (and compiles nothing of this file).
 */
#ifdef LIBPROF_PORTABLE
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

ssize_t __wrap_getrandom(void *buf, size_t len, unsigned int flags);
FILE *__wrap_fmemopen(void *buf, size_t size, const char *mode);

/* getrandom (glibc 2.25) is the system call itself; before Linux 3.17 it fails with ENOSYS, which every
 * caller already treats as "no entropy source". */
ssize_t __wrap_getrandom(void *buf, size_t len, unsigned int flags) {
    return syscall(SYS_getrandom, buf, len, flags);
}

/* fmemopen's glibc 2.22 version fixed the older one's handling of binary data and seeks; read-only streams
 * over a buffer are all libprof opens, and fopencookie (in every glibc) makes them exactly. */
typedef struct {
    const char *data;
    size_t size, pos;
} memory_stream;

static ssize_t memory_stream_read(void *cookie, char *out, size_t n) {
    memory_stream *s = cookie;
    size_t left = s->size - s->pos;
    if (n > left) n = left;
    memcpy(out, s->data + s->pos, n);
    s->pos += n;
    return (ssize_t)n;
}

static int memory_stream_seek(void *cookie, off64_t *offset, int whence) {
    memory_stream *s = cookie;
    off64_t base = whence == SEEK_SET ? 0 : whence == SEEK_CUR ? (off64_t)s->pos : (off64_t)s->size;
    if (whence != SEEK_SET && whence != SEEK_CUR && whence != SEEK_END) return errno = EINVAL, -1;
    off64_t to = base + *offset;
    if (to < 0 || to > (off64_t)s->size) return errno = EINVAL, -1;
    s->pos = (size_t)to;
    *offset = to;
    return 0;
}

static int memory_stream_close(void *cookie) {
    free(cookie);
    return 0;
}

FILE *__wrap_fmemopen(void *buf, size_t size, const char *mode) {
    if (!buf || size == 0 || (strcmp(mode, "r") != 0 && strcmp(mode, "rb") != 0)) {
        errno = EINVAL;   /* a mode that writes, or no buffer: not what libprof asks for */
        return NULL;
    }
    memory_stream *s = malloc(sizeof(*s));
    if (!s) return NULL;
    *s = (memory_stream){.data = buf, .size = size, .pos = 0};
    cookie_io_functions_t io = {.read = memory_stream_read, .seek = memory_stream_seek, .close = memory_stream_close};
    FILE *f = fopencookie(s, mode, io);
    if (!f) free(s);
    return f;
}
#endif
