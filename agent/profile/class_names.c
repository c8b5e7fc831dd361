/*
 * class_names: an open-addressing table of interned signatures behind one mutex, and an array from id to
 * signature. Both grow by doubling; signatures are copied once and never move, so a pointer a reader got
 * stays valid for the process.
 */
#include "class_names.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static uint32_t *slots;        /* id, 0 = empty */
static size_t slot_count;
static char **by_id;           /* [id] = signature; [0] unused */
static uint32_t count;         /* ids handed out */
static size_t id_capacity;

static uint64_t hash_of(const char *s) {
    uint64_t h = 1469598103934665603ULL;
    for (; *s; s++) h = (h ^ (uint8_t)*s) * 1099511628211ULL;
    return h;
}

static bool grow_slots(void) {
    size_t n = slot_count ? slot_count * 2 : 256;
    uint32_t *fresh = calloc(n, sizeof(uint32_t));
    if (!fresh) return false;
    for (size_t i = 0; i < slot_count; i++) {
        if (!slots[i]) continue;
        size_t at = hash_of(by_id[slots[i]]) & (n - 1);
        while (fresh[at]) at = (at + 1) & (n - 1);
        fresh[at] = slots[i];
    }
    free(slots);
    slots = fresh;
    slot_count = n;
    return true;
}

/* The array is only read under the mutex; the signatures it points to never move. */
static bool grow_ids(void) {
    size_t n = id_capacity ? id_capacity * 2 : 256;
    char **fresh = realloc(by_id, n * sizeof(char *));
    if (!fresh) return false;
    memset(fresh + id_capacity, 0, (n - id_capacity) * sizeof(char *));
    by_id = fresh;
    id_capacity = n;
    return true;
}

uint32_t class_names_intern(const char *signature) {
    if (!signature) return 0;
    uint32_t id = 0;
    pthread_mutex_lock(&lock);
    if ((count + 1) * 2 >= slot_count && !grow_slots()) goto out;
    size_t at = hash_of(signature) & (slot_count - 1);
    while (slots[at]) {
        if (strcmp(by_id[slots[at]], signature) == 0) {
            id = slots[at];
            goto out;
        }
        at = (at + 1) & (slot_count - 1);
    }
    if (count + 2 > id_capacity && !grow_ids()) goto out;
    char *copy = strdup(signature);
    if (!copy) goto out;
    id = ++count;
    by_id[id] = copy;
    slots[at] = id;
out:
    pthread_mutex_unlock(&lock);
    return id;
}

const char *class_names_signature(uint32_t id) {
    pthread_mutex_lock(&lock);
    const char *s = id > 0 && id <= count ? by_id[id] : NULL;
    pthread_mutex_unlock(&lock);
    return s;
}

static const char *primitive_name(char c) {
    switch (c) {
    case 'Z': return "boolean";
    case 'B': return "byte";
    case 'C': return "char";
    case 'S': return "short";
    case 'I': return "int";
    case 'J': return "long";
    case 'F': return "float";
    case 'D': return "double";
    }
    return NULL;
}

void class_names_java_name(const char *signature, char *buf, size_t len) {
    if (!len) return;
    size_t dims = strspn(signature, "[");
    const char *elem = signature + dims;
    size_t n = 0;
    const char *prim = elem[0] && !elem[1] ? primitive_name(elem[0]) : NULL;
    size_t elen = strlen(elem);
    if (prim && dims) n = (size_t)snprintf(buf, len, "%s", prim);
    else if (elem[0] == 'L' && elen >= 3 && elem[elen - 1] == ';') n = (size_t)snprintf(buf, len, "%.*s", (int)(elen - 2), elem + 1);
    else {
        snprintf(buf, len, "%s", signature);
        return;
    }
    for (size_t i = 0; i < n && i < len; i++) if (buf[i] == '/') buf[i] = '.';
    for (size_t d = 0; d < dims && n + 2 < len; d++) {
        buf[n++] = '[';
        buf[n++] = ']';
        buf[n] = 0;
    }
}
