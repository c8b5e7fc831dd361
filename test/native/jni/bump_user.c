/*
 * libbump_user_{a,b}.so: a library linked with its own allocator (libbump_alloc.so), loaded with RTLD_DEEPBIND
 * so that its calls of malloc, realloc and free bind there. DeepBindAlloc calls into it.
 */
#include <stdlib.h>
#include <string.h>

char *bump_strdup(const char *s);

static void *volatile keep;

/* Calls malloc only, so that its slot is bound and realloc's and free's are still lazy. */
void bump_user_malloc(int times) {
    for (int i = 0; i < times; i++) keep = malloc(32 + (size_t)i % 64);
}

/* Grows and frees blocks of its own allocator. Returns 0 when the data survived the growth. */
int bump_user_realloc_free(int times) {
    int bad = 0;
    for (int i = 0; i < times; i++) {
        char *p = malloc(16);
        memcpy(p, "bump-allocated", 15);
        p = realloc(p, 4096);
        bad |= memcmp(p, "bump-allocated", 15) != 0;
        free(p);
    }
    return bad;
}

/* Frees what its allocator's own helper allocated. */
void bump_user_free_strdup(int times) {
    for (int i = 0; i < times; i++) free(bump_strdup("from the library's own allocator"));
}
