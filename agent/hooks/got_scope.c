/*
 * got_scope: the lookup scope of a loaded object (got_scope.h), found through DT_NEEDED names matched
 * against the base namespace's list (r_debug), and the definitions in it, found through each object's
 * GNU or SysV symbol hash table.
 */
#define _GNU_SOURCE
#include "got_scope.h"

#include <elf.h>
#include <stdint.h>
#include <string.h>

#define MAX_SCOPE 128   /* objects of one scope looked at; a larger scope is not judged (left alone) */

typedef struct {
    ElfW(Addr) base;
    const ElfW(Sym) *symtab;
    const char *strtab;
    const uint32_t *gnu_hash, *sysv_hash;
    const char *soname;
} dyn_tables;

/* As got_patch reads them: absolute once relocated, except in an object the loader did not relocate. */
static uintptr_t dyn_ptr(ElfW(Addr) base, ElfW(Addr) p) {
    return p < base ? base + p : p;
}

static void read_dyn(const ElfW(Dyn) *dyn, ElfW(Addr) base, dyn_tables *t) {
    memset(t, 0, sizeof(*t));
    t->base = base;
    ElfW(Addr) soname = 0;
    bool has_soname = false;
    for (const ElfW(Dyn) *d = dyn; d && d->d_tag != DT_NULL; d++) {
        switch (d->d_tag) {
        case DT_SYMTAB: t->symtab = (const ElfW(Sym) *)dyn_ptr(base, d->d_un.d_ptr); break;
        case DT_STRTAB: t->strtab = (const char *)dyn_ptr(base, d->d_un.d_ptr); break;
        case DT_GNU_HASH: t->gnu_hash = (const uint32_t *)dyn_ptr(base, d->d_un.d_ptr); break;
        case DT_HASH: t->sysv_hash = (const uint32_t *)dyn_ptr(base, d->d_un.d_ptr); break;
        case DT_SONAME: soname = d->d_un.d_val; has_soname = true; break;
        default: break;
        }
    }
    if (t->strtab && has_soname) t->soname = t->strtab + soname;
}

static bool defines(const ElfW(Sym) *s) {
    unsigned type = ELF64_ST_TYPE(s->st_info), bind = ELF64_ST_BIND(s->st_info);
    return s->st_shndx != SHN_UNDEF && s->st_value != 0 && (type == STT_FUNC || type == STT_GNU_IFUNC) &&
           (bind == STB_GLOBAL || bind == STB_WEAK);
}

static uint32_t gnu_hash_of(const char *name) {
    uint32_t h = 5381;
    for (const unsigned char *c = (const unsigned char *)name; *c; c++) h = h * 33 + *c;
    return h;
}

static uint32_t sysv_hash_of(const char *name) {
    uint32_t h = 0;
    for (const unsigned char *c = (const unsigned char *)name; *c; c++) {
        h = (h << 4) + *c;
        uint32_t g = h & 0xf0000000u;
        if (g) h ^= g >> 24;
        h &= ~g;
    }
    return h;
}

/* Whether the object defines 'name' (a function, global or weak). */
static bool object_defines(const dyn_tables *t, const char *name) {
    if (!t->symtab || !t->strtab) return false;
    if (t->gnu_hash) {
        uint32_t nbuckets = t->gnu_hash[0], symoffset = t->gnu_hash[1], bloom_size = t->gnu_hash[2];
        const ElfW(Addr) *bloom = (const ElfW(Addr) *)&t->gnu_hash[4];
        const uint32_t *buckets = (const uint32_t *)&bloom[bloom_size], *chain = &buckets[nbuckets];
        if (nbuckets == 0) return false;
        uint32_t h = gnu_hash_of(name);
        for (uint32_t sym = buckets[h % nbuckets]; sym >= symoffset; sym++) {
            uint32_t link = chain[sym - symoffset];
            if ((link | 1) == (h | 1) && strcmp(t->strtab + t->symtab[sym].st_name, name) == 0 &&
                defines(&t->symtab[sym]))
                return true;
            if (link & 1) break;
        }
        return false;
    }
    if (t->sysv_hash) {
        uint32_t nbucket = t->sysv_hash[0];
        const uint32_t *bucket = &t->sysv_hash[2], *chain = &bucket[nbucket];
        if (nbucket == 0) return false;
        for (uint32_t sym = bucket[sysv_hash_of(name) % nbucket]; sym != STN_UNDEF; sym = chain[sym])
            if (strcmp(t->strtab + t->symtab[sym].st_name, name) == 0 && defines(&t->symtab[sym])) return true;
    }
    return false;
}

static const char *base_name(const char *path) {
    const char *slash = path ? strrchr(path, '/') : NULL;
    return slash ? slash + 1 : path ? path : "";
}

/* The C library and the loader define the allocator and lock functions the process resolves to (or that a
 * preloaded allocator replaces for everyone alike). */
static bool is_system_library(const char *name) {
    return strncmp(name, "libc.so", 7) == 0 || strncmp(name, "ld-linux", 8) == 0 || strncmp(name, "libpthread.so", 13) == 0;
}

/* The base namespace's object that DT_NEEDED 'needed' names, or NULL. */
static const struct link_map *find_needed(const char *needed) {
    for (const struct link_map *m = _r_debug.r_map; m; m = m->l_next) {
        if (strcmp(base_name(m->l_name), needed) == 0) return m;
        dyn_tables t;
        read_dyn(m->l_ld, m->l_addr, &t);
        if (t.soname && strcmp(t.soname, needed) == 0) return m;
    }
    return NULL;
}

static bool in_base_namespace(const ElfW(Dyn) *dyn) {
    for (const struct link_map *m = _r_debug.r_map; m; m = m->l_next)
        if (m->l_ld == dyn) return true;
    return false;
}

bool got_scope_binds_globally(const ElfW(Dyn) *dyn, ElfW(Addr) base, const char *const *family) {
    if (!dyn || !in_base_namespace(dyn)) return false;
    /* Breadth first, as the loader orders a scope: the object, then its needed objects, then theirs. */
    const ElfW(Dyn) *scope[MAX_SCOPE];
    ElfW(Addr) bases[MAX_SCOPE];
    size_t count = 1;
    scope[0] = dyn;
    bases[0] = base;
    for (size_t i = 0; i < count; i++) {
        dyn_tables t;
        read_dyn(scope[i], bases[i], &t);
        if (!t.strtab) return false;
        for (const char *const *name = family; *name; name++)
            if (object_defines(&t, *name)) return false;
        for (const ElfW(Dyn) *d = scope[i]; d->d_tag != DT_NULL; d++) {
            if (d->d_tag != DT_NEEDED) continue;
            const char *needed = t.strtab + d->d_un.d_val;
            if (is_system_library(base_name(needed))) continue;
            const struct link_map *m = find_needed(needed);
            if (!m) return false;   /* not found: its definitions are not known */
            bool seen = false;
            for (size_t k = 0; k < count && !seen; k++) seen = scope[k] == m->l_ld;
            if (seen) continue;
            if (count == MAX_SCOPE) return false;
            scope[count] = m->l_ld;
            bases[count++] = m->l_addr;
        }
    }
    return true;
}
