#define _GNU_SOURCE
#include "loaded_object.h"

#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <string.h>

typedef struct {
    const char *base;
    char *path;
    size_t len;
    bool found;
} search;

static int visit(struct dl_phdr_info *info, size_t size, void *arg) {
    (void)size;
    search *s = arg;
    const char *name = info->dlpi_name;
    if (!name || !*name) return 0;
    const char *slash = strrchr(name, '/');
    if (strcmp(slash ? slash + 1 : name, s->base) != 0) return 0;
    if (s->path) snprintf(s->path, s->len, "%s", name);
    s->found = true;
    return 1;
}

bool loaded_object_find(const char *base, char *path, size_t len) {
    search s = {base, path, len, false};
    dl_iterate_phdr(visit, &s);
    return s.found;
}

void *loaded_object_symbol(const char *base, const char *symbol) {
    void *p = dlsym(RTLD_DEFAULT, symbol);
    if (p) return p;
    char path[4096];
    if (!loaded_object_find(base, path, sizeof(path))) return NULL;
    /* RTLD_NOLOAD: a handle to the object already there (its reference count raised, and dropped below). */
    void *handle = dlopen(path, RTLD_LAZY | RTLD_NOLOAD);
    if (!handle) return NULL;
    p = dlsym(handle, symbol);
    dlclose(handle);
    return p;
}
