/*
 * java_stack: the calling thread's Java stack, taken on that thread outside signal handlers (the
 * instrumentation helper, JVMTI allocation and monitor callbacks). AsyncGetCallTrace from the thread's
 * last Java frame anchor (a native call or a JVMTI callback left one), JVMTI GetStackTrace when that fails.
 * Frames go into a per-thread buffer that grows to jstackdepth; the result is valid until the thread's
 * next call. Never from signal handlers: it allocates and calls JVMTI.
 */
#ifndef LIBPROF_JAVA_STACK_H
#define LIBPROF_JAVA_STACK_H

#include "frame.h"

#include <jni.h>
#include <stdbool.h>
#include <stdint.h>

/* Takes the stack, leaf first, leaving 'extra' free slots before the first frame (for a leaf frame the
 * caller adds, such as an allocated class). skip_native_top: the topmost frame is the caller's own native
 * method (the instrumentation helper) and is left out. *frames points at the buffer (extra slots first);
 * returns the number of Java frames after them (at least 1: a marker when nothing could be walked, or
 * MARKER_NO_JAVA_FRAMES when the thread has none), or 0
 * when out of memory. jvmti_only (tests) skips AsyncGetCallTrace. */
uint32_t java_stack_take(JNIEnv *jni, bool skip_native_top, uint32_t extra, bool jvmti_only, trace_frame **frames);

/* A call site that learns which walker serves it. In some callbacks AsyncGetCallTrace fails nearly always
 * (HotSpot's allocation sampler posts from the VM, where the frame anchor is not walkable by it: 908 of
 * 940 calls on JDK 17 and 25), and each failed try costs a partial walk before GetStackTrace does the job.
 * After a run of failures the site goes to GetStackTrace directly, trying AsyncGetCallTrace again now and
 * then in case the callers change. Zero-initialised; shared by threads (counts only, races harmless). */
typedef struct {
    _Atomic uint32_t asgct_misses;  /* failures in a row */
    _Atomic uint32_t skipped;       /* calls sent to GetStackTrace directly */
} java_stack_site;

/* java_stack_take for a call site that learns (above). */
uint32_t java_stack_take_at(java_stack_site *site, JNIEnv *jni, bool skip_native_top, uint32_t extra,
                            trace_frame **frames);

#endif
