/*
 * target_fs: jprof's only way into a target JVM's file system. Whoever runs in a container controls every
 * name in it, and through /proc/<pid>/root an absolute symlink there resolves in the HOST's file system; so
 * jprof never hands a path inside a target to the kernel as a string. It keeps directory descriptors opened
 * once and checked, reaches a path from the target's root with openat2(RESOLVE_IN_ROOT) (a symlink then
 * resolves inside the target's root, as the JVM itself sees it), and names anything inside a directory one
 * component at a time, never following a link. Used by jprof only.
 */
#ifndef JPROF_TARGET_FS_H
#define JPROF_TARGET_FS_H

#include <stddef.h>
#include <sys/stat.h>

/* Opens 'path' (absolute or relative, as the target names it) below 'root_fd' with open(2) 'flags':
 * openat2 with RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS, so neither a symlink nor ".." leaves the root. On a
 * kernel without openat2 (before Linux 5.6, or a filter that denies it) falls back to
 * target_fs_open_nofollow, which refuses every symlink instead. -1 with errno on failure. */
int target_fs_open_in_root(int root_fd, const char *path, int flags);

/* The fallback: 'path' walked one component at a time with O_NOFOLLOW; a symlink on the way fails with
 * ELOOP, a ".." with EXDEV. Public so that the tests exercise it on any kernel. */
int target_fs_open_nofollow(int root_fd, const char *path, int flags);

/* Opens 'name' in 'dir_fd' for reading only if it is a regular file: it is pinned first (O_PATH, not
 * following a link) and checked, so a FIFO cannot block jprof and a device is never opened. -1 with errno
 * (EINVAL for anything but a regular file). */
int target_fs_open_regular(int dir_fd, const char *name);

/* Removes 'name' from 'dir_fd' ('flags' as for unlinkat) only if it is still the file 'st' describes: a
 * name someone else has since put there is not ours to delete. -1 (errno ESTALE) when it is not. */
int target_fs_unlink_if_same(int dir_fd, const char *name, const struct stat *st, int flags);

/* Writes the /proc/self/fd path through which a syscall that takes only a path (connect, access) reaches
 * exactly the file 'fd' pins. */
void target_fs_fd_path(int fd, char out[32]);

#endif
