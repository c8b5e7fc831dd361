/*
 * alloc_stack: an allocation sample's stack, native and Java frames, taken on the allocating thread in the
 * JVM's sampling callback from the callback's caller, walked like a signal sample's (sample_walk_call: the
 * session's cstack and jstackdepth), so that allocation stacks are mixed like CPU ones: the VM's frames
 * between Java ones, and at start-up the launcher's (JNI_CreateJavaVM) under allocations no Java code made.
 * The JVM's allocation path itself (the sampler's posting, the allocator, up to the runtime entry the
 * allocating code called) is left out, as async-profiler leaves it out. Frames go into a per-thread buffer,
 * valid until the thread's next call. Never from signal handlers: it allocates.
 */
#ifndef LIBPROF_ALLOC_STACK_H
#define LIBPROF_ALLOC_STACK_H

#include "frame.h"
#include "sample.h"

#include <jni.h>
#include <stdint.h>

/* Takes the stack from 'site', leaf first, leaving 'extra' (at most 4) free slots before the first frame for
 * the caller's own leaf frames. *frames points at the buffer (extra slots first); returns the number of
 * frames after them, or 0 when nothing could be walked or out of memory (take the Java stack instead). */
uint32_t alloc_stack_take(const sample_call_site *site, JNIEnv *jni, uint32_t extra, trace_frame **frames);

#endif
