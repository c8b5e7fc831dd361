#include "alloc_live.h"

#include "event_kind.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    jweak object;
    alloc_live_object sampled;   /* its frames are the entry's own copy */
} live_entry;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static live_entry *entries;
static uint32_t count, capacity;

static void forget(JNIEnv *jni, live_entry *e) {
    (*jni)->DeleteWeakGlobalRef(jni, e->object);
    free((void *)e->sampled.frames);
}

/* Forgets the freed objects, keeping the order of the others. Caller holds the lock. */
static void purge(JNIEnv *jni) {
    uint32_t kept = 0;
    for (uint32_t i = 0; i < count; i++) {
        if ((*jni)->IsSameObject(jni, entries[i].object, NULL)) forget(jni, &entries[i]);
        else entries[kept++] = entries[i];
    }
    count = kept;
}

bool alloc_live_add(JNIEnv *jni, jobject object, const alloc_live_object *sampled) {
    bool ok = false;
    pthread_mutex_lock(&lock);
    if (count == capacity && capacity >= ALLOC_LIVE_MAX) purge(jni);
    if (count == capacity && capacity < ALLOC_LIVE_MAX) {
        uint32_t n = capacity ? capacity * 2 : 4096;
        live_entry *grown = realloc(entries, (size_t)n * sizeof(live_entry));
        if (grown) {
            entries = grown;
            capacity = n;
        }
    }
    if (count < capacity) {
        trace_frame *copy = malloc((size_t)sampled->depth * sizeof(trace_frame));
        jweak ref = copy ? (*jni)->NewWeakGlobalRef(jni, object) : NULL;
        if (ref) {
            memcpy(copy, sampled->frames, (size_t)sampled->depth * sizeof(trace_frame));
            entries[count] = (live_entry){ref, *sampled};
            entries[count++].sampled.frames = copy;
            ok = true;
        } else {
            free(copy);
        }
    }
    pthread_mutex_unlock(&lock);
    return ok;
}

/* As many distinct stacks as the objects tracked at most, and room for their frames. */
#define LIVE_TABLE_SLOTS (ALLOC_LIVE_MAX * 2)
#define LIVE_TABLE_FRAMES (8 * 1024 * 1024)

trace_table *alloc_live_store(JNIEnv *jni) {
    static trace_table *table;
    pthread_mutex_lock(&lock);
    if (!table) table = traces_create(LIVE_TABLE_SLOTS, LIVE_TABLE_FRAMES);
    if (table) {
        purge(jni);
        traces_reset(table);
        for (uint32_t i = 0; i < count; i++) {
            const alloc_live_object *o = &entries[i].sampled;
            trace_key key = {o->tid, EVENT_ALLOC, 0};
            traces_put_id(table, o->frames, o->depth, &key, o->weight, NULL);
        }
    }
    pthread_mutex_unlock(&lock);
    return table;
}

size_t alloc_live_visit(JNIEnv *jni, void (*visit)(const alloc_live_object *object, void *arg), void *arg) {
    pthread_mutex_lock(&lock);
    purge(jni);
    for (uint32_t i = 0; i < count; i++) visit(&entries[i].sampled, arg);
    size_t visited = count;
    pthread_mutex_unlock(&lock);
    return visited;
}

void alloc_live_clear(JNIEnv *jni) {
    pthread_mutex_lock(&lock);
    for (uint32_t i = 0; i < count; i++) forget(jni, &entries[i]);
    free(entries);
    entries = NULL;
    count = capacity = 0;
    pthread_mutex_unlock(&lock);
}
