/*
 * native_map: building and publishing the map of native objects (the signal-safe searches are in
 * native_map_lookup.c).
 *
 * Publication. A refresh builds a new sorted range array, then publishes it with one atomic release store.
 * The previous array is deliberately never freed: a signal handler on another thread may have loaded the
 * pointer just before the store and still be searching it, and without a reader count (which the handler
 * would have to maintain on every sample) nothing tells us when it is done. A new array is only published
 * when the set of executable mappings changed (a dlopen/dlclose), so the leak is one small array (tens of
 * bytes per library) per change. Objects, their symbol and unwind tables are kept for the same reason.
 */
#define _GNU_SOURCE
#include "native_map.h"

#include "demangle.h"
#include "elf_reader.h"
#include "native_map_ranges.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct {
    native_object pub;
    uint64_t dev, inode;
} loaded_object;

static pthread_mutex_t refresh_lock = PTHREAD_MUTEX_INITIALIZER;
static loaded_object **objects;
static size_t nobjects, objects_cap;

/* The whole of a /proc file (which has no size), NUL-terminated. */
static char *read_text_file(const char *path, size_t *len) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return NULL;
    size_t cap = 64 * 1024, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        if (cap - n < 2) {
            char *b = realloc(buf, cap * 2);
            if (!b) break;
            buf = b;
            cap *= 2;
        }
        ssize_t r = read(fd, buf + n, cap - n - 1);
        if (r <= 0) {
            buf[n] = 0;
            *len = n;
            close(fd);
            return buf;
        }
        n += (size_t)r;
    }
    free(buf);
    close(fd);
    return NULL;
}

static const char *base_name(const char *path) {
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static loaded_object *new_object(const char *path, uint64_t dev, uint64_t inode, uintptr_t bias, uintptr_t start,
                                 uintptr_t end) {
    if (nobjects == objects_cap) {
        size_t cap = objects_cap ? objects_cap * 2 : 64;
        loaded_object **o = realloc(objects, cap * sizeof(*o));
        if (!o) return NULL;
        objects = o;
        objects_cap = cap;
    }
    loaded_object *o = calloc(1, sizeof(*o));
    char *copy = o ? strdup(path) : NULL;
    if (!copy) {
        free(o);
        return NULL;
    }
    o->pub = (native_object){copy, base_name(copy), bias, start, end, NULL, NULL};
    o->dev = dev;
    o->inode = inode;
    objects[nobjects++] = o;
    return o;
}

/* Opens the ELF file behind a mapping, or says why not: *skip when the mapping is not native code at all. */
static elf_image *open_mapped(const char *path, bool deleted, uint64_t inode, uintptr_t start, uintptr_t end,
                              bool *skip) {
    *skip = false;
    /* The vDSO is a whole ELF image in its one executable mapping, with no file behind it. */
    if (strcmp(path, "[vdso]") == 0) return elf_open_bytes(path, (const void *)start, end - start, NULL, 0);
    /* Executable shared memory (memfd, /dev/zero, SysV) is generated code, like the JVM's code heap. */
    if (strncmp(path, "/memfd:", 7) == 0 || strncmp(path, "/dev/", 5) == 0 || strncmp(path, "/SYSV", 5) == 0) {
        *skip = true;
        return NULL;
    }
    /* A deleted file, or another file now at its path (a package upgraded under a running JVM): kept as a
     * nameless object, since it is native code, but never read, since what we would read is not it. */
    struct stat st;
    if (deleted || stat(path, &st) != 0 || st.st_ino != inode) return NULL;
    elf_image *img = elf_open(path, NULL, 0);
    *skip = img == NULL;  /* readable but not ELF (an executable mapping of a data file): not native code */
    return img;
}

/* The object for an executable mapping not seen at the previous refresh: one we loaded before (another
 * mapping of it, or a library unloaded and loaded again at the same place) or a new one. NULL when the
 * mapping is not native code. */
static const native_object *object_for(const char *path, bool deleted, uint64_t dev, uint64_t inode,
                                       uintptr_t start, uintptr_t end, uint64_t offset, int *loaded) {
    bool skip;
    elf_image *img = open_mapped(path, deleted, inode, start, end, &skip);
    if (skip) return NULL;
    uint64_t bias = start - offset;  /* a guess, right for most objects, when the file cannot be read */
    if (img && !elf_load_bias(img, start, offset, &bias)) bias = start - offset;
    for (size_t i = 0; i < nobjects; i++) {
        loaded_object *o = objects[i];
        if (o->dev == dev && o->inode == inode && o->pub.bias == bias && strcmp(o->pub.path, path) == 0) {
            elf_close(img);
            return &o->pub;
        }
    }
    loaded_object *o = new_object(path, dev, inode, (uintptr_t)bias, start, end);
    if (o && img) {
        o->pub.symbols = symtab_from_elf(img, path, NULL, NULL);
        /* Code built without unwind tables (-fno-asynchronous-unwind-tables) may still have .debug_frame, in
         * the object or, once stripped, in its separate debug file. */
        elf_section own;
        elf_image *debug = elf_section_by_name(img, ".debug_frame", &own) ? NULL : elf_debug_open(img, path, NULL);
        o->pub.unwind = dwarf_build_with_debug(img, debug);
        elf_close(debug);
    }
    elf_close(img);
    if (o) (*loaded)++;
    return o ? &o->pub : NULL;
}

/* The mapping from the previous set with the same address range, offset and file, if any. */
static const native_object *previous_object(const native_range_set *prev, uintptr_t start, uintptr_t end,
                                            uint64_t offset, uint64_t inode) {
    for (size_t i = 0; prev && i < prev->count; i++) {
        const native_range *r = &prev->ranges[i];
        if (r->start == start && r->end == end && r->offset == offset && r->inode == inode) return r->object;
    }
    return NULL;
}

static bool same_set(const native_range_set *a, const native_range_set *b) {
    if (!a || !b || a->count != b->count) return false;
    for (size_t i = 0; i < a->count; i++)
        if (a->ranges[i].start != b->ranges[i].start || a->ranges[i].end != b->ranges[i].end ||
            a->ranges[i].object != b->ranges[i].object)
            return false;
    return true;
}

static int compare_ranges(const void *pa, const void *pb) {
    const native_range *a = pa, *b = pb;
    return a->start < b->start ? -1 : a->start > b->start;
}

/* Parses the maps text into set (room for one range per line) and returns the number of objects loaded. */
static int collect_ranges(char *text, native_range_set *set, const native_range_set *prev) {
    int loaded = 0;
    for (char *line = text, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next) *next++ = 0;
        unsigned long start, end, offset, inode;
        unsigned int major, minor;
        char perms[5];
        int path_at = 0;
        if (sscanf(line, "%lx-%lx %4s %lx %x:%x %lu %n", &start, &end, perms, &offset, &major, &minor, &inode,
                   &path_at) < 7 || path_at == 0)
            continue;
        char *path = line + path_at;
        if (perms[2] != 'x' || end <= start || (path[0] != '/' && strcmp(path, "[vdso]") != 0)) continue;
        char *deleted = strstr(path, " (deleted)");
        if (deleted && deleted[10] == 0) *deleted = 0;
        else deleted = NULL;
        const native_object *o = previous_object(prev, start, end, offset, inode);
        if (!o) o = object_for(path, deleted != NULL, ((uint64_t)major << 32) | minor, inode, start, end, offset,
                                   &loaded);
        if (!o) continue;
        set->ranges[set->count++] = (native_range){start, end, offset, inode, o};
    }
    return loaded;
}

int native_map_refresh_from(const char *maps_path) {
    size_t len = 0;
    char *text = read_text_file(maps_path, &len);
    if (!text) return -1;
    size_t lines = 1;
    for (size_t i = 0; i < len; i++) lines += text[i] == '\n';
    native_range_set *set = malloc(sizeof(*set) + lines * sizeof(native_range));
    if (!set) {
        free(text);
        return -1;
    }
    set->count = 0;
    pthread_mutex_lock(&refresh_lock);
    native_range_set *prev = atomic_load_explicit(&native_map_published, memory_order_acquire);
    int loaded = collect_ranges(text, set, prev);
    qsort(set->ranges, set->count, sizeof(native_range), compare_ranges);
    set->retired = prev;  /* prev stays reachable (and allocated): see the top of this file */
    if (same_set(set, prev)) free(set);
    else atomic_store_explicit(&native_map_published, set, memory_order_release);
    pthread_mutex_unlock(&refresh_lock);
    free(text);
    return loaded;
}

int native_map_refresh(void) { return native_map_refresh_from("/proc/self/maps"); }

bool native_map_name(uintptr_t pc, char *buf, size_t len, const char **library_basename) {
    const native_object *o = native_map_lookup(pc);
    if (!o || len == 0) return false;
    if (library_basename) *library_basename = o->name;
    const char *sym = o->symbols && pc >= o->bias ? symtab_find(o->symbols, pc - o->bias, NULL) : NULL;
    if (!sym) {
        snprintf(buf, len, "%s", o->name);
    } else if (!demangle_function(sym, buf, len)) {
        snprintf(buf, len, "%s", sym);
    }
    return true;
}

bool native_map_find_function(const char *prefix, uintptr_t *addr, const char **object) {
    bool found = false;
    pthread_mutex_lock(&refresh_lock);
    for (size_t i = 0; i < nobjects && !found; i++) {
        uint64_t start;
        if (!symtab_lookup_prefix(objects[i]->pub.symbols, prefix, &start)) continue;
        *addr = (uintptr_t)start + objects[i]->pub.bias;
        if (object) *object = objects[i]->pub.name;
        found = true;
    }
    pthread_mutex_unlock(&refresh_lock);
    return found;
}

native_map_stats native_map_get_stats(void) {
    native_map_stats s = {0};
    pthread_mutex_lock(&refresh_lock);
    s.objects = nobjects;
    for (size_t i = 0; i < nobjects; i++) {
        s.symbols += symtab_count(objects[i]->pub.symbols);
        s.unwind_rows += dwarf_row_count(objects[i]->pub.unwind);
    }
    pthread_mutex_unlock(&refresh_lock);
    return s;
}
