/*
 * log: one lock around the sink so messages from the timeout thread and JVMTI callbacks do not interleave.
 */
#include "log.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static FILE *log_file;
static int log_threshold = LOG_INFO;

static const char *const level_names[] = {"debug", "info", "warn", "error", "none"};

int log_level_from_name(const char *name) {
    for (int i = 0; i <= LOG_NONE; i++) {
        if (strcmp(name, level_names[i]) == 0) return i;
    }
    return -1;
}

const char *log_level_name(int level) {
    return level >= 0 && level <= LOG_NONE ? level_names[level] : "?";
}

int log_configure(const char *path, int level) {
    int rc = 0;
    pthread_mutex_lock(&log_lock);
    log_threshold = level;
    if (log_file) {
        fclose(log_file);
        log_file = NULL;
    }
    if (path && *path) {
        log_file = fopen(path, "a");
        if (!log_file) rc = -1;
    }
    pthread_mutex_unlock(&log_lock);
    return rc;
}

void log_msg(int level, const char *fmt, ...) {
    if (level < log_threshold || level >= LOG_NONE) return;
    static const char *const tags[] = {"DEBUG", "INFO", "WARN", "ERROR"};
    pthread_mutex_lock(&log_lock);
    FILE *out = log_file ? log_file : stderr;
    fprintf(out, "[libprof] %s: ", tags[level]);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(out, fmt, ap);
    va_end(ap);
    fputc('\n', out);
    fflush(out);
    pthread_mutex_unlock(&log_lock);
}
