/*
 * log: one lock around the destinations so messages from the timeout thread, JVMTI callbacks and attach
 * requests do not interleave. Each message is one write(2) of a whole line.
 *
 * A log file is opened with O_NONBLOCK, so a FIFO cannot block the JVM, and links are followed only as
 * outputs follow them (safe_file): when every link of the chain is ours or root's (/dev/stderr), never one
 * another user planted. Only a regular file of our own user (not one of /proc or /sys, such as
 * /proc/self/mem, where every message would be lost or worse), a terminal, /dev/null, or the pipe or socket
 * our own stdout/stderr already write to is taken.
 * A session's file that has been deleted meanwhile (jprof's, once jprof has exited) gives way to stderr,
 * where the message can still be read.
 */
#define _GNU_SOURCE
#include "log.h"

#include "safe_file.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define TO_STDERR (-1)
#define TO_SESSION (-2)   /* a request without its own file */

typedef struct {
    int fd;      /* TO_STDERR, TO_SESSION or an open log file */
    int level;   /* as given (LOG_LEVEL_UNSET: by destination, see log_effective_level) */
} log_sink;

static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static log_sink session = {TO_STDERR, LOG_LEVEL_UNSET};
static log_sink request;
static bool in_request;

int log_effective_level(const char *path, int level) {
    if (level != LOG_LEVEL_UNSET) return level;
    return path && *path ? LOG_INFO : LOG_WARN;
}

/* True when fd is the pipe or socket standard output or error already writes to (log=/dev/stderr). */
static bool is_own_stream(const struct stat *st) {
    for (int std = STDOUT_FILENO; std <= STDERR_FILENO; std++) {
        struct stat s;
        if (fstat(std, &s) == 0 && s.st_dev == st->st_dev && s.st_ino == st->st_ino) return true;
    }
    return false;
}

int log_open_file(const char *path, char *err, size_t errlen) {
    char refused[1200];
    safe_file_kind kind = safe_file_classify(path, refused, sizeof(refused));
    if (kind == SAFE_FILE_REFUSED) {
        snprintf(err, errlen, "log=%s: not used: %s", path, refused);
        return -1;
    }
    int follow = kind == SAFE_FILE_LINK ? 0 : O_NOFOLLOW;   /* a link swapped in since: not followed */
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | follow | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0600);
    if (fd < 0) {
        int e = errno;
        if (e == ELOOP)
            snprintf(err, errlen, "log=%s: is a symbolic link, which is not followed; name the file itself", path);
        else if (e == ENXIO)
            snprintf(err, errlen, "log=%s: is a FIFO or socket; accepted: a regular file, a terminal or another "
                                  "character device", path);
        else snprintf(err, errlen, "log=%s: cannot open for appending: %s", path, strerror(e));
        return -1;
    }
    struct stat st;
    const char *why = NULL;
    char owner[96];
    struct statfs fs;
    bool special_fs = fstatfs(fd, &fs) == 0 && (fs.f_type == PROC_SUPER_MAGIC || fs.f_type == SYSFS_MAGIC);
    if (fstat(fd, &st) != 0) why = strerror(errno);
    else if (special_fs && !is_own_stream(&st)) why = "is a file of /proc or /sys, not a log (accepted: a regular file, a terminal, /dev/null)";
    else if (S_ISREG(st.st_mode)) {
        if (st.st_uid != geteuid()) {
            snprintf(owner, sizeof(owner), "owned by uid %u, not by this JVM's user (uid %u)", (unsigned)st.st_uid,
                     (unsigned)geteuid());
            why = owner;
        } else if (st.st_nlink != 1) why = "has other hard links";
    } else if ((S_ISCHR(st.st_mode) && (isatty(fd) || st.st_rdev == makedev(1, 3))) || is_own_stream(&st)) {
        /* A terminal, or where stderr goes anyway: writes wait like stderr's rather than lose messages. */
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    } else if (S_ISCHR(st.st_mode)) why = "is a character device that is neither a terminal nor /dev/null";
    else why = "is not a regular file, a terminal or /dev/null (a FIFO or socket?)";
    if (why) {
        snprintf(err, errlen, "log=%s: %s; not used", path, why);
        close(fd);
        return -1;
    }
    return fd;
}

static void close_sink(log_sink *s) {
    if (s->fd >= 0) close(s->fd);
    s->fd = TO_STDERR;
}

int log_open_session(const char *path, int level, char *err, size_t errlen) {
    int fd = path && *path ? log_open_file(path, err, errlen) : TO_STDERR;
    pthread_mutex_lock(&log_lock);
    close_sink(&session);
    session.fd = fd < 0 ? TO_STDERR : fd;
    session.level = level;
    pthread_mutex_unlock(&log_lock);
    return path && *path && fd < 0 ? -1 : 0;
}

int log_begin_request(const char *path, int level, char *err, size_t errlen) {
    int fd = path && *path ? log_open_file(path, err, errlen) : TO_SESSION;
    pthread_mutex_lock(&log_lock);
    if (in_request) close_sink(&request);
    request.fd = fd < 0 ? TO_SESSION : fd;
    request.level = level;
    in_request = true;
    pthread_mutex_unlock(&log_lock);
    return fd == -1 ? -1 : 0;
}

void log_keep_request_for_session(void) {
    pthread_mutex_lock(&log_lock);
    if (in_request) {
        if (request.fd != TO_SESSION) {
            close_sink(&session);
            session.fd = request.fd;
        }
        if (request.level != LOG_LEVEL_UNSET) session.level = request.level;
        in_request = false;
    }
    pthread_mutex_unlock(&log_lock);
}

void log_end_request(void) {
    pthread_mutex_lock(&log_lock);
    if (in_request) close_sink(&request);
    in_request = false;
    pthread_mutex_unlock(&log_lock);
}

/* The descriptor a message of 's' goes to (-1: stderr). Caller holds the lock. */
static int destination(const log_sink *s) {
    if (s->fd == TO_SESSION) s = &session;
    if (s == &session && s->fd >= 0) {
        struct stat st;
        if (fstat(s->fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_nlink == 0) close_sink(&session);
    }
    return s->fd;
}

/* The level in force for 's' writing to 'fd': a request without its own level or file has the session's. */
static int threshold(const log_sink *s, int fd) {
    if (s->level != LOG_LEVEL_UNSET) return s->level;
    if (s->fd == TO_SESSION && session.level != LOG_LEVEL_UNSET) return session.level;
    return log_effective_level(fd >= 0 ? "file" : NULL, LOG_LEVEL_UNSET);
}

void log_msg(int level, const char *fmt, ...) {
    static const char *const tags[] = {"DEBUG", "INFO", "WARN", "ERROR"};
    if (level < LOG_DEBUG || level >= LOG_NONE) return;
    int saved_errno = errno;
    pthread_mutex_lock(&log_lock);
    const log_sink *s = in_request ? &request : &session;
    int dest = destination(s);
    if (level >= threshold(s, dest)) {
        int fd = dest >= 0 ? dest : STDERR_FILENO;
        char line[4096];
        int n = snprintf(line, sizeof(line), "[libprof] %s: ", tags[level]);
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(line + n, sizeof(line) - (size_t)n - 1, fmt, ap);
        va_end(ap);
        size_t len = strlen(line);
        line[len++] = '\n';
        for (size_t off = 0; off < len;) {
            ssize_t w = write(fd, line + off, len - off);
            if (w < 0 && errno == EINTR) continue;
            if (w <= 0) break;
            off += (size_t)w;
        }
    }
    pthread_mutex_unlock(&log_lock);
    errno = saved_errno;
}
