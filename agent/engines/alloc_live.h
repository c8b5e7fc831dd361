/*
 * alloc_live: the sampled objects of an alloc,live session. Each sample keeps a JNI weak global reference
 * to its object with its stack and weight instead of being stored at once; when the profile is written,
 * the objects the collector has freed (their weak reference now equals null) are forgotten and the rest
 * are stored. JNI calls under one mutex: JVMTI callbacks and the dump thread, never signal handlers.
 */
#ifndef LIBPROF_ALLOC_LIVE_H
#define LIBPROF_ALLOC_LIVE_H

#include "frame.h"
#include "traces.h"

#include <jni.h>
#include <stdbool.h>
#include <stdint.h>

/* Most sampled objects tracked at once: past it, freed ones are forgotten first, then samples dropped. */
#define ALLOC_LIVE_MAX (1u << 20)

/* One tracked object: its stack (the class as the leaf frame), thread, sample weight, own size in bytes and
 * when it was allocated (CLOCK_MONOTONIC ns, the JFR writer's clock). */
typedef struct {
    const trace_frame *frames;
    uint32_t depth, tid;
    uint64_t weight, size, ticks;
} alloc_live_object;

/* Keeps the object (its frames copied). False when it cannot: too many tracked, or out of memory. */
bool alloc_live_add(JNIEnv *jni, jobject object, const alloc_live_object *sampled);

/* Forgets the freed objects and stores the others (as EVENT_ALLOC samples) into a table of its own,
 * emptied first; returns it (NULL when it cannot be reserved). The table is the profile's source until the
 * next call. */
trace_table *alloc_live_store(JNIEnv *jni);

/* Forgets the freed objects and calls 'visit' with each of the others, under the module's lock (visit must
 * not call back into it). Returns how many it visited. */
size_t alloc_live_visit(JNIEnv *jni, void (*visit)(const alloc_live_object *object, void *arg), void *arg);

/* Forgets everything (a new session). */
void alloc_live_clear(JNIEnv *jni);

#endif
