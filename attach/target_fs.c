/*
 * target_fs: openat2 has no glibc wrapper before 2.38, hence syscall(). RESOLVE_NO_MAGICLINKS because a
 * target could otherwise plant a link to /proc/<its pid>/... whose magic links point anywhere on the host.
 * Reopening through /proc/self/fd is how a pinned O_PATH descriptor becomes a readable one without a second
 * lookup by name, which the target could race.
 */
#define _GNU_SOURCE
#include "target_fs.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define OPENAT2_ATTEMPTS 64

#ifndef SYS_openat2
#define SYS_openat2 437
#endif

int target_fs_open_nofollow(int root_fd, const char *path, int flags) {
    int dir = fcntl(root_fd, F_DUPFD_CLOEXEC, 0);
    if (dir < 0) return -1;
    const char *p = path;
    for (;;) {
        p += strspn(p, "/");
        size_t len = strcspn(p, "/");
        const char *next = p + len + strspn(p + len, "/");
        bool last = *next == 0;
        if (len == 0) return dir;   /* "" or "/": the root itself */
        char name[256];
        if (len >= sizeof(name)) {
            close(dir);
            errno = ENAMETOOLONG;
            return -1;
        }
        memcpy(name, p, len);
        name[len] = 0;
        if (strcmp(name, ".") == 0 && !last) {
            p = next;
            continue;
        }
        if (strcmp(name, "..") == 0) {
            close(dir);
            errno = EXDEV;
            return -1;
        }
        int fd = openat(dir, name, (last ? flags : O_PATH | O_DIRECTORY) | O_NOFOLLOW | O_CLOEXEC);
        int e = errno;
        /* O_PATH|O_NOFOLLOW opens a symlink itself (O_DIRECTORY then reports ENOTDIR): call it what it is. */
        struct stat st;
        bool link = fd >= 0 ? fstat(fd, &st) == 0 && S_ISLNK(st.st_mode)
                            : fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode);
        if (link) e = ELOOP;
        close(dir);
        if (fd < 0 || link) {
            if (fd >= 0) close(fd);
            errno = e;
            return -1;
        }
        if (last) return fd;
        dir = fd;
        p = next;
    }
}

int target_fs_open_in_root(int root_fd, const char *path, int flags) {
    struct open_how how = {.flags = (uint64_t)(flags | O_CLOEXEC), .resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS};
    long fd;
    /* EAGAIN: a rename raced a ".." in the lookup. Bounded: a target renaming without pause must not hang us. */
    int attempts = 0;
    do fd = syscall(SYS_openat2, root_fd, path, &how, sizeof(how));
    while (fd < 0 && errno == EAGAIN && ++attempts < OPENAT2_ATTEMPTS);
    if (fd < 0 && (errno == ENOSYS || errno == EPERM)) return target_fs_open_nofollow(root_fd, path, flags);
    return (int)fd;
}

void target_fs_fd_path(int fd, char out[32]) {
    snprintf(out, 32, "/proc/self/fd/%d", fd);
}

int target_fs_open_regular(int dir_fd, const char *name) {
    int pinned = openat(dir_fd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
    if (pinned < 0) return -1;
    struct stat st;
    int fd = -1;
    if (fstat(pinned, &st) == 0) {
        if (S_ISREG(st.st_mode)) {
            char path[32];
            target_fs_fd_path(pinned, path);
            fd = open(path, O_RDONLY | O_CLOEXEC);
        } else {
            errno = EINVAL;
        }
    }
    int e = errno;
    close(pinned);
    errno = e;
    return fd;
}

static bool is_same(int dir_fd, const char *name, const struct stat *st) {
    struct stat now;
    return fstatat(dir_fd, name, &now, AT_SYMLINK_NOFOLLOW) == 0 && now.st_dev == st->st_dev &&
           now.st_ino == st->st_ino;
}

int target_fs_unlink_if_same(int dir_fd, const char *name, const struct stat *st, int flags) {
    if (!is_same(dir_fd, name, st)) {
        errno = ESTALE;
        return -1;
    }
    return unlinkat(dir_fd, name, flags);
}
