/*
 * session_dir: a directory rather than loose files in /tmp, because the agent writes its results through a
 * temporary file beside the destination and renames it: inside a 0700 directory nobody else can race it.
 */
#define _GNU_SOURCE
#include "session_dir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int session_dir_create(const proc_target *t, session_dir *d, char *err, size_t errlen) {
    char template_inner[64], template_outer[320];
    snprintf(template_inner, sizeof(template_inner), "/tmp/jprof-%d.XXXXXX", (int)getpid());
    if (proc_target_path(t, template_inner, template_outer, sizeof(template_outer))) {
        snprintf(err, errlen, "temporary directory path too long");
        return -1;
    }
    if (!mkdtemp(template_outer)) {
        snprintf(err, errlen, "cannot create a private directory in the JVM's /tmp (%s): %s", template_outer,
                 strerror(errno));
        return -1;
    }
    snprintf(d->outer, sizeof(d->outer), "%s", template_outer);
    /* mkdtemp replaced the X's in place: the inner name ends the same way. */
    size_t suffix = strlen(template_inner);
    snprintf(d->inner, sizeof(d->inner), "%s", template_outer + strlen(template_outer) - suffix);
    return 0;
}

int session_dir_new_file(const session_dir *d, const char *name, char *inner, size_t innerlen, char *err,
                         size_t errlen) {
    char outer[512];
    snprintf(outer, sizeof(outer), "%s/%s", d->outer, name);
    int fd = open(outer, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) {
        snprintf(err, errlen, "cannot create %s: %s", outer, strerror(errno));
        return -1;
    }
    close(fd);
    snprintf(inner, innerlen, "%s/%s", d->inner, name);
    return 0;
}

long session_dir_copy(const session_dir *d, const char *name, off_t *offset, FILE *to) {
    char outer[512];
    snprintf(outer, sizeof(outer), "%s/%s", d->outer, name);
    int fd = open(outer, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
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

void session_dir_remove(const session_dir *d) {
    if (!d->outer[0]) return;
    DIR *dir = opendir(d->outer);
    if (dir) {
        struct dirent *e;
        while ((e = readdir(dir))) {
            if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) unlinkat(dirfd(dir), e->d_name, 0);
        }
        closedir(dir);
    }
    rmdir(d->outer);
}
