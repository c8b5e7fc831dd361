/*
 * leak_table_create: reserving and clearing the table of live sampled allocations (leak_table.h), outside
 * hooks. The entries are an anonymous mapping, touched only where addresses land; never unmapped once a
 * session used them, since a hook still running on another thread may read them.
 */
#include "leak_table_create.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

leak_table *leak_table_create(size_t entries) {
    size_t n = 1;
    while (n < entries) n <<= 1;
    leak_table *t = calloc(1, sizeof(*t));
    if (!t) return NULL;
    void *m = mmap(NULL, n * sizeof(leak_entry), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
    if (m == MAP_FAILED) {
        free(t);
        return NULL;
    }
    t->entries = m;
    t->mask = n - 1;
    return t;
}

void leak_table_clear(leak_table *t) {
    /* Gives the pages back: a cleared table costs nothing until it is used again. */
    madvise(t->entries, (t->mask + 1) * sizeof(leak_entry), MADV_DONTNEED);
    atomic_store(&t->tracked, 0);
    atomic_store(&t->full, 0);
}

void leak_table_destroy(leak_table *t) {
    if (!t) return;
    munmap(t->entries, (t->mask + 1) * sizeof(leak_entry));
    free(t);
}
