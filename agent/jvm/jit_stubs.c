/*
 * jit_stubs: a list under a mutex, appended by the JVMTI callback, searched from the newest entry at dump
 * time (a range reported again, for GenerateEvents at attach, or reused after its code was freed, takes
 * its newest name). Lookups are per distinct pc and cached by the callers, so a linear search suffices.
 */
#include "jit_stubs.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_STUBS (1 << 16)   /* HotSpot reports a few thousand; beyond this, stub frames keep the blob name */

typedef struct {
    uintptr_t start, end;
    char *name;
} stub;

static stub *stubs;
static size_t count, capacity;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

void jit_stubs_add(const void *address, long length, const char *name) {
    if (!address || length <= 0 || !name) return;
    pthread_mutex_lock(&lock);
    if (count == capacity && capacity < MAX_STUBS) {
        size_t grown = capacity ? capacity * 2 : 1024;
        stub *more = realloc(stubs, grown * sizeof(stub));
        if (more) {
            stubs = more;
            capacity = grown;
        }
    }
    char *copy = count < capacity ? strdup(name) : NULL;
    if (copy) stubs[count++] = (stub){(uintptr_t)address, (uintptr_t)address + (uintptr_t)length, copy};
    pthread_mutex_unlock(&lock);
}

bool jit_stubs_name(uintptr_t pc, char *name, size_t len) {
    bool found = false;
    pthread_mutex_lock(&lock);
    for (size_t i = count; i-- > 0;) {
        if (pc >= stubs[i].start && pc < stubs[i].end) {
            snprintf(name, len, "%s", stubs[i].name);
            found = true;
            break;
        }
    }
    pthread_mutex_unlock(&lock);
    return found;
}
