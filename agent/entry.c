/*
 * entry: the library's only exported symbols. Agent_OnLoad (-agentpath at start-up) validates everything
 * it can at once, because a bad option must stop the JVM before it runs anything; the action itself waits
 * for VMInit. Agent_OnAttach (dynamic attach) runs the action now; a second load reuses this instance,
 * since the JVM hands back the same library and all state is in it.
 */
#include "engine.h"
#include "jvm.h"
#include "log.h"
#include "options.h"
#include "profiler.h"

#include <jni.h>
#include <stdbool.h>
#include <stdio.h>

static int configure(JavaVM *vm, const char *text, bool attach, prof_options *o) {
    char err[OPTIONS_ERROR_MAX];
    if (options_parse(text, o, err, sizeof(err))) {
        fprintf(stderr, "[libprof] ERROR: %s\n", err);
        return -1;
    }
    if (log_configure(o->log_file, o->log_level))
        fprintf(stderr, "[libprof] ERROR: log=%s: cannot open for appending; logging to stderr\n", o->log_file);
    if (jvm_init(vm, attach, err, sizeof(err))) {
        log_error("%s", err);
        return -1;
    }
    /* Refuse an engine that cannot run here now, not later in the middle of the application. */
    if (o->action == ACTION_START || o->action == ACTION_RESUME) {
        if (!engine_choose(o, false, err, sizeof(err))) {
            log_error("%s", err);
            return -1;
        }
    }
    return 0;
}

JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM *vm, char *options, void *reserved) {
    (void)reserved;
    prof_options o;
    if (configure(vm, options, false, &o)) return JNI_ERR;
    profiler_defer_until_vm_init(&o);
    return JNI_OK;
}

JNIEXPORT jint JNICALL Agent_OnAttach(JavaVM *vm, char *options, void *reserved) {
    (void)reserved;
    prof_options o;
    if (configure(vm, options, true, &o)) return JNI_ERR;
    char err[OPTIONS_ERROR_MAX];
    if (profiler_execute(&o, err, sizeof(err))) {
        log_error("%s", err);
        return JNI_ERR;
    }
    return JNI_OK;
}

JNIEXPORT void JNICALL Agent_OnUnload(JavaVM *vm) {
    (void)vm;
}
