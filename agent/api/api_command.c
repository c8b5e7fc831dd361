#define _GNU_SOURCE
#include "api_command.h"

#include "jvm.h"
#include "jvm_callbacks.h"
#include "log.h"
#include "options.h"
#include "out_jfr.h"
#include "output.h"
#include "profiler.h"
#include "sample_setup.h"
#include "thread_filter_init.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Serialises API commands: the output capture is one for the process. */
static pthread_mutex_t api_lock = PTHREAD_MUTEX_INITIALIZER;

/* async-profiler's Java API asks for a profile with a format alone ("collapsed,samples"). */
static bool is_dump_request(const prof_options *o) {
    return o->action == ACTION_NONE && (o->format != FORMAT_AUTO || o->file[0]);
}

static int run_locked(JavaVM *vm, const prof_options *o, bool binary, api_result *result, char *err,
                      size_t errlen) {
    if (vm && jvm_callbacks_init(vm, true, err, errlen)) return -1;
    /* The JFR writer writes to the process's standard output itself, where the caller would never see it;
     * but a dump or stop of a JFR session that has a file writes to that file, as async-profiler's does. */
    bool to_session_file = (o->action == ACTION_DUMP || o->action == ACTION_STOP) && out_jfr_has_file();
    if (!o->file[0] && o->format == FORMAT_JFR && !to_session_file) {
        snprintf(err, errlen, "a JFR recording needs a file here: add file=PATH.jfr to the command");
        result->bad_command = true;
        return -1;
    }
    /* pprof is gzip-compressed binary: returned through execute() as a String it would be cut at its first
     * zero byte, so, as for JFR, it goes to a file. */
    if (!o->file[0] && o->format == FORMAT_PPROF) {
        snprintf(err, errlen, "a pprof profile is binary (gzip) and needs a file here: add file=PATH.pb.gz to the "
                 "command");
        result->bad_command = true;
        return -1;
    }
    /* OpenTelemetry's profile is binary too, but uncompressed and small: returned as bytes, as
     * async-profiler's dumpOtlp() does. */
    if (!o->file[0] && o->format == FORMAT_OTLP && !binary) {
        snprintf(err, errlen, "an OpenTelemetry profile is binary: take it as bytes (executeBytes, dumpOtlp) or "
                 "add file=PATH to the command");
        result->bad_command = true;
        return -1;
    }
    /* An API's stop answers as async-profiler's does: an error when nothing runs (jprof's stop then writes
     * the last session's profile again; here dump does that). */
    if (o->action == ACTION_STOP && !profiler_running()) {
        snprintf(err, errlen, "profiler is not running: nothing to stop");
        return -1;
    }
    FILE *capture = open_memstream(&result->output, &result->length);
    if (!capture) {
        snprintf(err, errlen, "out of memory for the command's output");
        return -1;
    }
    output_capture(capture);
    int rc = profiler_execute(o, err, errlen);
    output_capture(NULL);
    if (fclose(capture) && rc == 0) {
        snprintf(err, errlen, "out of memory for the command's output");
        rc = -1;
    }
    return rc;
}

int api_execute(JavaVM *vm, const char *command, bool binary, api_result *result, char *err, size_t errlen) {
    memset(result, 0, sizeof(*result));
    prof_options o;
    if (options_parse(command, &o, err, errlen)) {
        result->bad_command = true;
        return -1;
    }
    if (is_dump_request(&o)) o.action = ACTION_DUMP;
    if (o.action == ACTION_NONE) {
        snprintf(err, errlen, "command '%s' has no action: give start, resume, stop, dump, status, metrics or version, "
                 "or an output format (collapsed, traces, flat, ...) to dump", command ? command : "");
        result->bad_command = true;
        return -1;
    }
    pthread_mutex_lock(&api_lock);
    /* Messages of this command go to its log= (else the session's destination); a start keeps them. */
    char why[1200];
    if (log_begin_request(o.log_file, o.log_level, why, sizeof(why))) log_error("%s; messages go to the session's log", why);
    int rc = run_locked(vm, &o, binary, result, err, errlen);
    if (rc == 0 && (o.action == ACTION_START || o.action == ACTION_RESUME)) log_keep_request_for_session();
    log_end_request();
    pthread_mutex_unlock(&api_lock);
    if (rc) {
        free(result->output);
        result->output = NULL;
        result->length = 0;
    }
    return rc;
}

int api_init(JavaVM *vm, char *err, size_t errlen) {
    if (!vm) return 0;   /* no JVM: nothing to set up before a native session */
    pthread_mutex_lock(&api_lock);
    int rc = jvm_callbacks_init(vm, true, err, errlen);
    pthread_mutex_unlock(&api_lock);
    return rc;
}

int api_filter_thread(int tid, bool enable) {
    if (thread_filter_init()) return -1;
    thread_filter_set(tid, enable);
    return 0;
}

uint64_t api_samples(void) {
    sample_counters c;
    sample_get_counters(&c);
    return c.stored;
}
