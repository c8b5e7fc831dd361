/*
 * span_tags: the tags of the spans an application records (Span.end(start, "GET /orders")), each given a
 * key for the whole life of the process, so that the JFR chunks' String pools can name them by key (a key
 * keeps its meaning from chunk to chunk, as the JDK's parser expects). Key 0 is the null tag. Called from
 * the application's threads (the API's natives) and the JFR writer; never from a handler.
 */
#ifndef LIBPROF_SPAN_TAGS_H
#define LIBPROF_SPAN_TAGS_H

#include <stdint.h>

/* The key of 'tag' (UTF-8, copied on first use); 0 for NULL. UINT64_MAX when out of memory. */
uint64_t span_tags_key(const char *tag);

/* Calls fn with the tag of 'key' under the registry's lock (the text may move once the lock is released).
 * Returns -1 for an unknown key. */
int span_tags_with(uint64_t key, void (*fn)(const char *tag, void *arg), void *arg);

#endif
