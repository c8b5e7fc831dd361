/*
 * api_c: the C API (include/libprof.h) over api_command, and async-profiler's C API names over that.
 * The JVM is found at each call with JNI_GetCreatedJavaVMs, looked up at run time in libjvm itself: the
 * library does not link libjvm, which a native host may have loaded RTLD_LOCAL. Without one, the command
 * runs in a process with no JVM (native frames, the engines that need no JVM).
 */
#define _GNU_SOURCE
#include "libprof.h"

#include "api_command.h"
#include "loaded_object.h"

#include <jni.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define LIBPROF_API __attribute__((visibility("default")))

enum { ERROR_MAX = 1024 };
static const char no_memory_for_error[] = "out of memory (for the error message too)";
static pthread_key_t error_key;
static pthread_once_t error_key_once = PTHREAD_ONCE_INIT;

static void create_error_key(void) {
    pthread_key_create(&error_key, free);
}

/* The calling thread's error message, on the heap: the library's thread-local storage comes out of the
 * process's small static TLS reserve, where a second copy of the library (another agent, a -agentpath beside
 * an attach) would not fit beside a buffer this size. NULL when it cannot be allocated. */
static char *thread_error(void) {
    pthread_once(&error_key_once, create_error_key);
    char *buf = pthread_getspecific(error_key);
    if (!buf && (buf = calloc(1, ERROR_MAX)) && pthread_setspecific(error_key, buf)) {
        free(buf);
        buf = NULL;
    }
    return buf;
}

typedef jint (*created_vms_fn)(JavaVM **, jsize, jsize *);

static JavaVM *find_vm(void) {
    created_vms_fn created = (created_vms_fn)loaded_object_symbol("libjvm.so", "JNI_GetCreatedJavaVMs");
    JavaVM *vm = NULL;
    jsize count = 0;
    if (created && created(&vm, 1, &count) == JNI_OK && count > 0) return vm;
    return NULL;
}

/* The VM, with the calling thread attached to it (*attached: by us, to detach afterwards), or *vm NULL in
 * a process with none. -1 with the reason in last_error when the VM is there but refuses the thread. */
static int enter_vm(JavaVM **found, int *attached, char *last_error) {
    *attached = 0;
    JavaVM *vm = *found = find_vm();
    if (!vm) return 0;
    JNIEnv *env = NULL;
    jint rc = (*vm)->GetEnv(vm, (void **)&env, JNI_VERSION_1_6);
    if (rc == JNI_EDETACHED) {
        JavaVMAttachArgs args = {JNI_VERSION_1_6, "libprof C API", NULL};
        if ((*vm)->AttachCurrentThreadAsDaemon(vm, (void **)&env, &args) != JNI_OK) {
            snprintf(last_error, ERROR_MAX, "cannot attach this thread to the Java VM");
            return -1;
        }
        *attached = 1;
    } else if (rc != JNI_OK) {
        snprintf(last_error, ERROR_MAX, "the Java VM refuses a JNI environment (GetEnv: %d)", (int)rc);
        return -1;
    }
    return 0;
}

static void leave_vm(JavaVM *vm, int attached) {
    if (vm && attached) (*vm)->DetachCurrentThread(vm);
}

LIBPROF_API int libprof_init(void) {
    char *last_error = thread_error();
    if (!last_error) return -1;
    int attached;
    JavaVM *vm;
    if (enter_vm(&vm, &attached, last_error)) return -1;
    int rc = api_init(vm, last_error, ERROR_MAX);
    leave_vm(vm, attached);
    if (rc == 0) last_error[0] = 0;
    return rc;
}

LIBPROF_API int libprof_execute(const char *command, libprof_writer writer, void *arg) {
    char *last_error = thread_error();
    if (!last_error) return -1;
    int attached;
    JavaVM *vm;
    if (enter_vm(&vm, &attached, last_error)) return -1;
    api_result r;
    int rc = api_execute(vm, command, true, &r, last_error, ERROR_MAX);
    leave_vm(vm, attached);
    if (rc == 0) {
        last_error[0] = 0;
        if (writer && r.length) writer(r.output, r.length, arg);
    }
    free(r.output);
    return rc;
}

LIBPROF_API const char *libprof_last_error(void) {
    const char *last_error = thread_error();
    return last_error ? last_error : no_memory_for_error;
}

/* ---- async-profiler's C API: the error is the message itself, valid until the thread's next call ---- */

static void call_asprof_writer(const char *buf, size_t size, void *arg) {
    asprof_writer_t writer = *(asprof_writer_t *)arg;
    writer(buf, size);
}

LIBPROF_API void asprof_init(void) {
    libprof_init();   /* a failure shows at the first asprof_execute, as the signature has no result */
}

LIBPROF_API const char *asprof_error_str(asprof_error_t err) {
    return err;
}

LIBPROF_API asprof_error_t asprof_execute(const char *command, asprof_writer_t output_callback) {
    int rc = libprof_execute(command, output_callback ? call_asprof_writer : NULL, &output_callback);
    return rc ? libprof_last_error() : NULL;
}
