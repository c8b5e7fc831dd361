/*
 * asgct: the AsyncGetCallTrace interface. HotSpot exports the function from libjvm.so without a header;
 * these declarations follow its documented ABI (forte.cpp).
 */
#ifndef LIBPROF_ASGCT_H
#define LIBPROF_ASGCT_H

#include <jni.h>

typedef struct {
    jint lineno;          /* bytecode index; -3 for a native method */
    jmethodID method_id;
} asgct_frame;

typedef struct {
    JNIEnv *env_id;
    jint num_frames;      /* > 0 frames; 0 no Java frames; < 0 a failure code (see frame.h markers) */
    asgct_frame *frames;
} asgct_trace;

typedef void (*asgct_fn)(asgct_trace *trace, jint depth, void *ucontext);

#endif
