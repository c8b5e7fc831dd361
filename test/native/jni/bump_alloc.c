/*
 * libbump_alloc.so: an allocator of its own, as some libraries bundle one: malloc and its family served from a
 * static arena (each block preceded by its size; free keeps nothing). The C library's realloc or free of one
 * of its pointers ends the process. bump_strdup allocates here directly, as a library's own helpers do.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define ARENA_BYTES (64u << 20)
static _Alignas(64) unsigned char arena[ARENA_BYTES];
static size_t used;

static void *take(size_t size, size_t align) {
    if (align < 16) align = 16;
    for (;;) {
        size_t at = used, start = (at + 16 + align - 1) & ~(align - 1);
        if (start + size > ARENA_BYTES) return NULL;
        if (__atomic_compare_exchange_n(&used, &at, start + size, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
            ((size_t *)(arena + start))[-1] = size;
            return arena + start;
        }
    }
}

void *malloc(size_t size) { return take(size, 16); }
void free(void *p) { (void)p; }
void *calloc(size_t n, size_t size) {
    void *p = n && size > SIZE_MAX / n ? NULL : take(n * size, 16);
    return p ? memset(p, 0, n * size) : NULL;   /* the arena may have been used by a freed block */
}
void *realloc(void *p, size_t size) {
    void *q = take(size, 16);
    if (p && q) {
        size_t old = ((size_t *)p)[-1];
        memcpy(q, p, old < size ? old : size);
    }
    return q;
}
int posix_memalign(void **out, size_t align, size_t size) {
    void *p = take(size, align);
    if (!p) return ENOMEM;
    *out = p;
    return 0;
}
void *aligned_alloc(size_t align, size_t size) { return take(size, align); }
void *memalign(size_t align, size_t size) { return take(size, align); }

char *bump_strdup(const char *s) {
    size_t n = strlen(s) + 1;
    char *p = take(n, 16);
    return p ? memcpy(p, s, n) : NULL;
}
