/*
 * safe_file: creating, opening and moving output files without replacing, following or hanging on what
 * is not ours (the rules are in safe_file.h). The temporary name carries random bits so that another
 * user cannot plant a FIFO or a file under it in advance; O_EXCL refuses whatever is there anyway and a
 * fresh name is tried.
 */
#define _GNU_SOURCE
#include "safe_file.h"

#include "proc_status.h"

#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define TEMP_ATTEMPTS 16

static uint32_t random_bits(void) {
    uint32_t r;
    if (getrandom(&r, sizeof(r), GRND_NONBLOCK) == (ssize_t)sizeof(r)) return r;
    /* No entropy yet (early boot): unpredictable enough to make a collision rare, and O_EXCL catches it. */
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    static uint32_t counter;
    return (uint32_t)ts.tv_nsec ^ ((uint32_t)getpid() << 16) ^ (++counter * 2654435761u);
}

/* 0644 minus the umask. umask() itself would change the process's mask for a moment under the JVM's
 * other threads, so it is read from /proc. */
static mode_t final_mode(void) {
    mode_t mask = 022;
    char value[32];
    unsigned m;
    if (proc_status_field("/proc/self/status", "Umask", value, sizeof(value)) && sscanf(value, "%o", &m) == 1)
        mask = (mode_t)m;
    return 0644 & ~mask;
}

/* Every link on the way from 'path' to what it names must be ours or root's: another user's link anywhere
 * in the chain could redirect the output. A descriptor's link (/proc/self/fd/1 -> "pipe:[123]") names
 * nothing that lstat finds, which ends the walk; the kernel follows it. */
static bool links_trusted(const char *path, char *err, size_t errlen) {
    char cur[PATH_MAX], next[PATH_MAX];
    snprintf(cur, sizeof(cur), "%s", path);
    for (int hop = 0; hop < 40; hop++) {   /* a longer chain fails later with ELOOP */
        struct stat st;
        if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode)) return true;
        if (st.st_uid != geteuid() && st.st_uid != 0) {
            snprintf(err, errlen,
                     "'%s' leads through a symbolic link of another user ('%s', uid %u): refused, so that a planted "
                     "link cannot redirect the output; name the file itself",
                     path, cur, (unsigned)st.st_uid);
            return false;
        }
        ssize_t n = readlink(cur, next, sizeof(next) - 1);
        if (n < 0) return true;
        next[n] = 0;
        if (next[0] == '/') {
            memcpy(cur, next, (size_t)n + 1);
        } else {
            const char *slash = strrchr(cur, '/');
            int dir_len = slash ? (int)(slash - cur + 1) : 0;
            char joined[PATH_MAX];
            if (snprintf(joined, sizeof(joined), "%.*s%s", dir_len, cur, next) >= (int)sizeof(joined)) return true;
            memcpy(cur, joined, strlen(joined) + 1);
        }
    }
    return true;
}

/* An existing regular file is replaced (or, behind a link of ours, written) only when it is our user's: a
 * profiler running as root must not replace another user's file that happens to carry the output's name,
 * whoever planted it there. */
static bool regular_file_ours(const char *path, const struct stat *st, char *err, size_t errlen) {
    if (st->st_uid == geteuid()) return true;
    snprintf(err, errlen,
             "'%s' is a file of another user (uid %u; this process runs as uid %u): refused, so that a profile "
             "never replaces what is not its own; name a new file or remove that one first",
             path, (unsigned)st->st_uid, (unsigned)geteuid());
    return false;
}

/* A FIFO or socket is written in place, so its owner gets what we write and, reading nothing, could hold our
 * writes: only ours or root's (one planted in a shared sticky directory such as /tmp is another user's). */
static bool channel_ours(const char *path, const struct stat *st, char *err, size_t errlen) {
    if (st->st_uid == geteuid() || st->st_uid == 0) return true;
    snprintf(err, errlen,
             "'%s' is a %s of another user (uid %u; this process runs as uid %u): refused, so that no one else "
             "reads the profile or holds its writing; name a new file, or a FIFO of this user's",
             path, S_ISFIFO(st->st_mode) ? "FIFO" : "socket", (unsigned)st->st_uid, (unsigned)geteuid());
    return false;
}

safe_file_kind safe_file_classify(const char *path, char *err, size_t errlen) {
    struct stat st;
    if (lstat(path, &st) != 0) {
        if (errno == ENOENT) return SAFE_FILE_NEW;   /* a missing directory is reported by the creation */
        snprintf(err, errlen, "'%s': %s", path, strerror(errno));
        return SAFE_FILE_REFUSED;
    }
    if (S_ISREG(st.st_mode)) return regular_file_ours(path, &st, err, errlen) ? SAFE_FILE_NEW : SAFE_FILE_REFUSED;
    safe_file_kind kind = SAFE_FILE_DEVICE;
    if (S_ISLNK(st.st_mode)) {
        if (!links_trusted(path, err, errlen)) return SAFE_FILE_REFUSED;
        if (stat(path, &st) != 0) {
            snprintf(err, errlen, "'%s' is a symbolic link that leads nowhere (%s): name the file itself", path,
                     strerror(errno));
            return SAFE_FILE_REFUSED;
        }
        kind = SAFE_FILE_LINK;
    }
    if (S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "'%s' is a directory: name a file", path);
        return SAFE_FILE_REFUSED;
    }
    if (S_ISREG(st.st_mode) && !regular_file_ours(path, &st, err, errlen)) return SAFE_FILE_REFUSED;
    if ((S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)) && !channel_ours(path, &st, err, errlen))
        return SAFE_FILE_REFUSED;
    return kind;
}

int safe_file_create_temp(const char *base, const char *suffix, char *temp, size_t templen, char *err,
                          size_t errlen) {
    for (int attempt = 0; attempt < TEMP_ATTEMPTS; attempt++) {
        int n = snprintf(temp, templen, "%s.tmp-%d-%08x%s", base, (int)getpid(), random_bits(), suffix);
        if (n < 0 || (size_t)n >= templen) {
            snprintf(err, errlen, "'%s': the path is too long", base);
            return -1;
        }
        /* O_NONBLOCK: should anything but a new file ever be opened here, the open still cannot hang. */
        int fd = open(temp, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0600);
        if (fd < 0 && errno == EEXIST) continue;
        if (fd < 0) {
            snprintf(err, errlen, "'%s': %s", base, strerror(errno));
            return -1;
        }
        struct stat st;
        if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || fcntl(fd, F_SETFL, 0) != 0) {
            snprintf(err, errlen, "'%s': the temporary file %s is not a regular file", base, temp);
            close(fd);
            return -1;
        }
        return fd;
    }
    snprintf(err, errlen, "'%s': %d temporary names beside it were taken", base, TEMP_ATTEMPTS);
    return -1;
}

int safe_file_publish(int fd, const char *temp, const char *path) {
    if (fchmod(fd, final_mode()) != 0) return errno;
    return rename(temp, path) == 0 ? 0 : errno;
}

void safe_file_keep(int fd) {
    if (fd >= 0) (void)fchmod(fd, final_mode());
}

/* Opens an existing non-regular output (or, through a link of ours, whatever it leads to) for writing. */
static int open_in_place(const char *path, bool through_link, const char *what, char *err, size_t errlen) {
    int flags = O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | (through_link ? 0 : O_NOFOLLOW);
    int fd = open(path, flags);
    if (fd < 0) {
        int e = errno;
        struct stat st;
        if (e == ENXIO && stat(path, &st) == 0 && S_ISFIFO(st.st_mode))
            snprintf(err, errlen, "cannot write %s to '%s': it is a FIFO with no reader", what, path);
        else snprintf(err, errlen, "cannot write %s to '%s': %s", what, path, strerror(e));
        return -1;
    }
    struct stat st;
    bool ok = fstat(fd, &st) == 0;
    if (ok && S_ISREG(st.st_mode)) {
        /* A regular file where a device was seen a moment ago has been swapped under us: not ours to
         * write. Through a link it is the file the link names: rewritten from the start. */
        ok = through_link && ftruncate(fd, 0) == 0;
    }
    /* What the descriptor is, not what the name was a moment ago: a FIFO of another user swapped in. */
    char why[SAFE_FILE_PATH_MAX + 200];
    if (ok && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)) && !channel_ours(path, &st, why, sizeof(why))) {
        snprintf(err, errlen, "cannot write %s: %s", what, why);
        close(fd);
        return -1;
    }
    /* O_NONBLOCK stays: safe_file_write_all waits for a slow reader, but only so long. */
    if (!ok) {
        snprintf(err, errlen, "cannot write %s to '%s': it changed while being opened", what, path);
        close(fd);
        return -1;
    }
    return fd;
}

bool safe_file_write_all(int fd, const void *buf, size_t len) {
    const char *p = buf;
    while (len > 0) {
        ssize_t w = write(fd, p, len);
        if (w < 0 && errno == EINTR) continue;
        if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            struct pollfd ready = {fd, POLLOUT, 0};
            int n = poll(&ready, 1, SAFE_FILE_STALL_MS);
            if (n < 0 && errno == EINTR) continue;
            if (n == 0) errno = ETIMEDOUT;
            if (n <= 0) return false;
            continue;
        }
        if (w <= 0) {
            if (w == 0) errno = ENOSPC;
            return false;
        }
        p += w;
        len -= (size_t)w;
    }
    return true;
}

static ssize_t stream_write(void *cookie, const char *buf, size_t len) {
    /* fopencookie wants the bytes written, 0 on error (the stream's error flag is then set). */
    return safe_file_write_all(*(int *)cookie, buf, len) ? (ssize_t)len : 0;
}

static int stream_close(void *cookie) {
    (void)cookie;   /* the descriptor is safe_file_commit's to close */
    return 0;
}

FILE *safe_file_stream(safe_file *f) {
    cookie_io_functions_t io = {.write = stream_write, .close = stream_close};
    FILE *out = fopencookie(&f->fd, "w", io);
    if (out) setvbuf(out, NULL, _IOFBF, 1 << 16);
    return out;
}

int safe_file_open(safe_file *f, const char *path, const char *what, char *err, size_t errlen) {
    f->fd = -1;
    f->temp[0] = 0;
    if (snprintf(f->path, sizeof(f->path), "%s", path) >= (int)sizeof(f->path)) {
        snprintf(err, errlen, "cannot write %s to '%s': the path is too long", what, path);
        return -1;
    }
    char why[SAFE_FILE_TEMP_MAX + 128];
    safe_file_kind kind = safe_file_classify(path, why, sizeof(why));
    switch (kind) {
    case SAFE_FILE_REFUSED:
        snprintf(err, errlen, "cannot write %s: %s", what, why);
        return -1;
    case SAFE_FILE_DEVICE:
    case SAFE_FILE_LINK:
        f->in_place = true;
        f->fd = open_in_place(path, kind == SAFE_FILE_LINK, what, err, errlen);
        return f->fd < 0 ? -1 : 0;
    case SAFE_FILE_NEW:
        break;
    }
    f->in_place = false;
    f->fd = safe_file_create_temp(path, "", f->temp, sizeof(f->temp), why, sizeof(why));
    if (f->fd < 0) {
        snprintf(err, errlen, "cannot write %s to %s", what, why);
        return -1;
    }
    return 0;
}

int safe_file_commit(safe_file *f, const char *what, char *err, size_t errlen) {
    if (f->in_place) {
        int rc = close(f->fd);
        f->fd = -1;
        if (rc != 0 && errno != EINTR) {
            snprintf(err, errlen, "cannot write %s to '%s': %s", what, f->path, strerror(errno));
            return -1;
        }
        return 0;
    }
    int e = safe_file_publish(f->fd, f->temp, f->path);
    if (close(f->fd) != 0 && !e && errno != EINTR) {
        /* The data may not have reached the disk (NFS reports it at close): the move already happened. */
        e = errno;
        snprintf(err, errlen, "cannot write %s to '%s': %s", what, f->path, strerror(e));
        f->fd = -1;
        return -1;
    }
    f->fd = -1;
    if (e) {
        snprintf(err, errlen, "cannot move %s to '%s': %s; it is kept in '%s'", what, f->path, strerror(e), f->temp);
        return -1;
    }
    return 0;
}

void safe_file_abandon(safe_file *f) {
    if (f->fd >= 0) close(f->fd);
    f->fd = -1;
    if (!f->in_place && f->temp[0]) unlink(f->temp);
}
