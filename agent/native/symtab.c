/*
 * symtab: sorted symbol tables. Entries are 16 bytes (start, 32-bit size, 32-bit offset of the name in the
 * string block): libjvm's ~100k functions take under 2 MB with their names. Aliases (one address, several
 * names, common in glibc) are reduced to one entry at build time so a lookup returns a stable name.
 */
#define _GNU_SOURCE
#include "symtab.h"

#include "array_grow.h"
#include "elf_reader.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    uint64_t start;
    uint64_t size;
    uint32_t name;
    int32_t rank;
    uint32_t order;
} pending;

struct symtab_builder {
    pending *items;
    size_t n, cap;
    char *names;
    size_t names_len, names_cap;
    bool failed;
};

typedef struct {
    uint64_t start;
    uint32_t size;
    uint32_t name;
} entry;

struct symtab {
    entry *entries;
    size_t n;
    char *names;
};

/* Nested symbols (a local label with a size inside its function) mean the closest start below an address
 * may not contain it; the enclosing one is a few entries back. */
#define NESTING_LOOKBACK 16

symtab_builder *symtab_builder_new(void) { return calloc(1, sizeof(symtab_builder)); }

void symtab_builder_add(symtab_builder *b, uint64_t start, uint64_t size, const char *name, int rank) {
    size_t len = strlen(name) + 1;
    if (b->failed || b->names_len + len > UINT32_MAX || b->n >= UINT32_MAX) return;
    if (array_grow((void **)&b->items, sizeof(pending), b->n + 1, &b->cap) ||
        array_grow((void **)&b->names, 1, b->names_len + len, &b->names_cap)) {
        b->failed = true;
        return;
    }
    memcpy(b->names + b->names_len, name, len);
    b->items[b->n] = (pending){start, size, (uint32_t)b->names_len, rank, (uint32_t)b->n};
    b->names_len += len;
    b->n++;
}

static int leading_underscores(const char *s) {
    int n = 0;
    while (s[n] == '_') n++;
    return n;
}

/* qsort_r: several builders may be finishing at once (kallsyms and native_map on different threads). */
static int compare_pending(const void *pa, const void *pb, void *names) {
    const pending *a = pa, *b = pb;
    const char *builder_name = names;
    if (a->start != b->start) return a->start < b->start ? -1 : 1;
    /* glibc defines its public names as aliases of internal ones (getpid of __getpid, malloc of
     * __libc_malloc): users know the public one. */
    int ua = leading_underscores(builder_name + a->name), ub = leading_underscores(builder_name + b->name);
    if (ua != ub) return ua < ub ? -1 : 1;
    if (a->rank != b->rank) return a->rank > b->rank ? -1 : 1;
    return a->order < b->order ? -1 : a->order > b->order;
}

symtab *symtab_builder_finish(symtab_builder *b, uint64_t fill_limit) {
    symtab *t = calloc(1, sizeof(*t));
    if (!t || b->failed) goto fail;
    if (b->n) {
        qsort_r(b->items, b->n, sizeof(pending), compare_pending, b->names);
        t->entries = malloc(b->n * sizeof(entry));
        if (!t->entries) goto fail;
    }
    for (size_t i = 0; i < b->n;) {
        /* The best-ranked alias names the address; the largest size among them covers it. */
        size_t j = i;
        uint64_t size = 0;
        for (; j < b->n && b->items[j].start == b->items[i].start; j++)
            if (b->items[j].size > size) size = b->items[j].size;
        if (size == 0) {
            size = j < b->n ? b->items[j].start - b->items[i].start : fill_limit;
            if (size > fill_limit) size = fill_limit;
            if (size == 0) size = 1;
        }
        t->entries[t->n++] = (entry){b->items[i].start, size > UINT32_MAX ? UINT32_MAX : (uint32_t)size,
                                     b->items[i].name};
        i = j;
    }
    t->names = b->names;  /* the block moves to the table; names of dropped aliases stay in it, unused */
    free(b->items);
    free(b);
    return t;
fail:
    free(b->items);
    free(b->names);
    free(b);
    if (t) free(t->entries);
    free(t);
    return NULL;
}

void symtab_free(symtab *t) {
    if (!t) return;
    free(t->entries);
    free(t->names);
    free(t);
}

size_t symtab_count(const symtab *t) { return t ? t->n : 0; }

const char *symtab_find(const symtab *t, uint64_t vaddr, uint64_t *offset_in_symbol) {
    if (!t || t->n == 0) return NULL;
    /* lo = number of entries with start <= vaddr */
    size_t lo = 0, hi = t->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->entries[mid].start <= vaddr) lo = mid + 1;
        else hi = mid;
    }
    for (size_t k = 0; k < NESTING_LOOKBACK && lo > k; k++) {
        const entry *e = &t->entries[lo - 1 - k];
        if (vaddr - e->start < e->size) {
            if (offset_in_symbol) *offset_in_symbol = vaddr - e->start;
            return t->names + e->name;
        }
    }
    return NULL;
}

bool symtab_lookup_name(const symtab *t, const char *name, uint64_t *start) {
    for (size_t i = 0; t && i < t->n; i++) {
        if (strcmp(t->names + t->entries[i].name, name) == 0) {
            *start = t->entries[i].start;
            return true;
        }
    }
    return false;
}

bool symtab_lookup_prefix(const symtab *t, const char *prefix, uint64_t *start) {
    size_t n = strlen(prefix);
    for (size_t i = 0; t && i < t->n; i++) {
        const char *name = t->names + t->entries[i].name;
        if (strncmp(name, prefix, n) == 0 && !strchr(name + n, '.')) {
            *start = t->entries[i].start;
            return true;
        }
    }
    return false;
}

static void add_elf_symbol(void *ctx, uint64_t vaddr, uint64_t size, const char *name, int binding) {
    symtab_builder_add(ctx, vaddr, size, name, binding);
}

symtab *symtab_from_elf(const elf_image *img, const char *path, const char *debug_root, bool *from_debug_file) {
    symtab_builder *b = symtab_builder_new();
    if (!b) return NULL;
    elf_image *dbg = elf_has_symtab(img) ? NULL : elf_debug_open(img, path, debug_root);
    if (from_debug_file) *from_debug_file = dbg != NULL;
    elf_for_each_function(dbg ? dbg : img, add_elf_symbol, b);
    elf_close(dbg);
    /* ELF function symbols nearly always carry their size; the fill is for hand-written code without. */
    return symtab_builder_finish(b, 4096);
}

symtab *symtab_load_elf(const char *path, const char *debug_root, bool *from_debug_file, char *err,
                        size_t errlen) {
    elf_image *img = elf_open(path, err, errlen);
    if (!img) return NULL;
    symtab *t = symtab_from_elf(img, path, debug_root, from_debug_file);
    elf_close(img);
    return t;
}
