/* span_tags: an interner (the profile model's, names only) under one mutex; keys are its ids plus one. */
#include "span_tags.h"

#include "profile.h"

#include <pthread.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static profile tags;
static bool ready;

uint64_t span_tags_key(const char *tag) {
    if (!tag) return 0;
    pthread_mutex_lock(&lock);
    if (!ready) {
        profile_init(&tags);
        ready = true;
    }
    uint32_t id = profile_intern(&tags, tag, FTYPE_MARKER);
    pthread_mutex_unlock(&lock);
    return id == UINT32_MAX ? UINT64_MAX : (uint64_t)id + 1;
}

int span_tags_with(uint64_t key, void (*fn)(const char *tag, void *arg), void *arg) {
    int rc = -1;
    pthread_mutex_lock(&lock);
    if (ready && key >= 1 && key <= tags.name_count) {
        fn(tags.names[key - 1], arg);
        rc = 0;
    }
    pthread_mutex_unlock(&lock);
    return rc;
}
