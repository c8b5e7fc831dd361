/*
 * entry: the library's only exported symbols. Agent_OnLoad (-agentpath at start-up) validates everything
 * it can at once, because a bad option must stop the JVM before it runs anything; the action itself waits
 * for VMInit. Agent_OnAttach (dynamic attach) runs the action now; a second load reuses this instance,
 * since the JVM hands back the same library and all state is in it.
 *
 * Attach requests come from jprof, which reads the agent's words only from the log= file it passes: so
 * every error of a request, a bad option included, goes there. That file is the request's (log.h): once the
 * request is done, messages go back to the session's destination, the log= of the session's start, unless
 * the request started the session.
 */
#define _GNU_SOURCE
#include "engine.h"
#include "engine_registry.h"
#include "jvm.h"
#include "jvm_callbacks.h"
#include "log.h"
#include "options.h"
#include "profiler.h"

#include <dlfcn.h>
#include <jni.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* HotSpot unloads an agent library whose Agent_OnAttach fails, while our JVMTI callbacks and threads may
 * already point into it: keep it mapped for the life of the process. */
static void pin_library(void) {
    Dl_info info;
    if (dladdr((void *)pin_library, &info) && info.dli_fname)
        dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
}

/* The log= value of an option string the parser refused, so the error still reaches the requester. */
static void configure_log_of_bad_options(const char *text) {
    const char *p = text;
    while (p && *p) {
        if (strncmp(p, "log=", 4) == 0) {
            char path[1024];
            snprintf(path, sizeof(path), "%.*s", (int)strcspn(p + 4, ","), p + 4);
            char why[1200];
            if (log_begin_request(path, LOG_INFO, why, sizeof(why))) log_error("%s", why);
            return;
        }
        p = strchr(p, ',');
        if (p) p++;
    }
}

static int configure(JavaVM *vm, const char *text, bool attach, prof_options *o) {
    char err[OPTIONS_ERROR_MAX];
    if (options_parse(text, o, err, sizeof(err))) {
        if (attach && text) configure_log_of_bad_options(text);
        log_error("%s", err);
        return -1;
    }
    char why[1200];
    if (attach ? log_begin_request(o->log_file, o->log_level, why, sizeof(why))
               : log_open_session(o->log_file, o->log_level, why, sizeof(why)))
        log_error("%s; messages go to %s", why, attach ? "the session's log" : "stderr");
    if (o->ignored[0])
        log_warn("options ignored: %s (async-profiler's; libprof does not have them: docs/options.md)", o->ignored);
    if (jvm_callbacks_init(vm, attach, err, sizeof(err))) {
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
    pin_library();
    prof_options o;
    jint rc = JNI_OK;
    char err[OPTIONS_ERROR_MAX];
    if (configure(vm, options, true, &o)) rc = JNI_ERR;
    else if (profiler_execute(&o, err, sizeof(err))) {
        log_error("%s", err);
        rc = JNI_ERR;
    } else if (o.action == ACTION_START || o.action == ACTION_RESUME) {
        log_keep_request_for_session();
    }
    log_end_request();
    return rc;
}

JNIEXPORT void JNICALL Agent_OnUnload(JavaVM *vm) {
    (void)vm;
}
