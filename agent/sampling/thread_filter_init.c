/*
 * thread_filter_init: the set-up half of thread_filter (signal/thread_filter.c): its bits (tid_bitmap),
 * mapped once, by the first API call that adds or removes a thread or the first session with `filter`.
 */
#include "thread_filter.h"
#include "thread_filter_init.h"
#include "tid_bitmap.h"

#include <pthread.h>
#include <stdbool.h>

static pthread_once_t once = PTHREAD_ONCE_INIT;
static bool ready;

static void map_bits(void) {
    size_t count;
    _Atomic uint64_t *bits = tid_bitmap_map(&count);
    if (!bits) return;
    thread_filter_use(bits, count);
    ready = true;
}

int thread_filter_init(void) {
    pthread_once(&once, map_bits);
    return ready ? 0 : -1;
}
