/*
 * session_dir: a directory rather than loose files in /tmp, because the agent writes its results through a
 * temporary file beside the destination and renames it: inside a 0700 directory nobody else can race it.
 * mkdtemp works on a path only, so the unique name is made here and created with mkdirat in the /tmp
 * descriptor; it is then opened without following a link and checked (a directory, ours, private) before
 * anything is put in it.
 */
#define _GNU_SOURCE
#include "session_dir.h"

#include "target_fs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#define NAME_ATTEMPTS 100

static void random_suffix(char *out, size_t len) {
    static const char chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    unsigned char bytes[16];
    if (getrandom(bytes, sizeof(bytes), 0) != (ssize_t)sizeof(bytes)) {
        /* No entropy source: uniqueness still holds through mkdirat's EEXIST and the retries. */
        for (size_t i = 0; i < sizeof(bytes); i++) bytes[i] = (unsigned char)rand();
    }
    for (size_t i = 0; i + 1 < len && i < sizeof(bytes); i++) out[i] = chars[bytes[i] % (sizeof(chars) - 1)];
    out[len - 1] = 0;
}

static int fail(session_dir *d, char *err, size_t errlen, const char *what) {
    snprintf(err, errlen, "cannot create a private directory in the JVM's /tmp (%s): %s", d->outer, what);
    if (d->fd >= 0) close(d->fd);
    if (d->tmp_fd >= 0) close(d->tmp_fd);
    d->fd = d->tmp_fd = -1;
    return -1;
}

int session_dir_create(const proc_target *t, session_dir *d, char *err, size_t errlen) {
    memset(d, 0, sizeof(*d));
    d->fd = -1;
    d->tmp_fd = fcntl(t->tmp_fd, F_DUPFD_CLOEXEC, 0);
    if (d->tmp_fd < 0) return fail(d, err, errlen, strerror(errno));
    int rc = -1;
    for (int i = 0; i < NAME_ATTEMPTS && rc; i++) {
        char suffix[7];
        random_suffix(suffix, sizeof(suffix));
        snprintf(d->name, sizeof(d->name), "jprof-%d.%s", (int)getpid(), suffix);
        snprintf(d->outer, sizeof(d->outer), "%s/tmp/%s", t->root, d->name);
        rc = mkdirat(d->tmp_fd, d->name, 0700);
        if (rc && errno != EEXIST) return fail(d, err, errlen, strerror(errno));
    }
    if (rc) return fail(d, err, errlen, "no unused name found");
    snprintf(d->inner, sizeof(d->inner), "/tmp/%s", d->name);
    d->fd = openat(d->tmp_fd, d->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (d->fd < 0 || fstat(d->fd, &d->st)) return fail(d, err, errlen, strerror(errno));
    /* Between mkdirat and openat the name could have been given to something else. */
    if (d->st.st_uid != geteuid() || (d->st.st_mode & 077))
        return fail(d, err, errlen, "it was replaced by a directory that is not private to the JVM's user");
    return 0;
}

int session_dir_new_file(const session_dir *d, const char *name, char *inner, size_t innerlen, char *err,
                         size_t errlen) {
    int fd = openat(d->fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) {
        snprintf(err, errlen, "cannot create %s/%s: %s", d->outer, name, strerror(errno));
        return -1;
    }
    close(fd);
    snprintf(inner, innerlen, "%s/%s", d->inner, name);
    return 0;
}

long session_dir_copy(const session_dir *d, const char *name, off_t *offset, FILE *to) {
    int fd = target_fs_open_regular(d->fd, name);
    if (fd < 0) return -1;
    long copied = 0;
    char buf[65536];
    ssize_t n;
    while ((n = pread(fd, buf, sizeof(buf), *offset)) > 0) {
        fwrite(buf, 1, (size_t)n, to);
        *offset += n;
        copied += n;
    }
    close(fd);
    fflush(to);
    return n < 0 ? -1 : copied;
}

int session_dir_remove(session_dir *d, char *err, size_t errlen) {
    if (d->fd < 0) return 0;
    int rc = 0;
    int scan = fcntl(d->fd, F_DUPFD_CLOEXEC, 0);
    DIR *dir = scan >= 0 ? fdopendir(scan) : NULL;
    if (dir) {
        struct dirent *e;
        /* unlinkat never follows: a planted symlink inside is removed itself, its target is untouched. */
        while ((e = readdir(dir))) {
            if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) unlinkat(d->fd, e->d_name, 0);
        }
        closedir(dir);
    } else if (scan >= 0) {
        close(scan);
    }
    if (target_fs_unlink_if_same(d->tmp_fd, d->name, &d->st, AT_REMOVEDIR) && errno == ESTALE) {
        snprintf(err, errlen,
                 "warning: the session directory %s was moved or replaced while jprof ran (by the JVM's user, or "
                 "a process in its container); jprof emptied its own directory and left alone what has that name now",
                 d->outer);
        rc = -1;
    }
    close(d->fd);
    close(d->tmp_fd);
    d->fd = d->tmp_fd = -1;
    return rc;
}
