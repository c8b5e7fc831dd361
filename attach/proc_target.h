/*
 * proc_target: what jprof learns about a process from /proc before it dares to signal it: that it exists,
 * who owns it, that it is a HotSpot JVM ready to handle SIGQUIT, its pid inside its own pid namespace, and
 * how to reach its files when it lives in another mount namespace (a container).
 * Used by jprof only; no JVM code here.
 */
#ifndef JPROF_PROC_TARGET_H
#define JPROF_PROC_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

typedef struct {
    pid_t pid;          /* as we see it */
    pid_t ns_pid;       /* as the JVM sees itself (innermost NSpid): names its socket and trigger file */
    uid_t uid;          /* effective ids: the JVM accepts only peers with these (or root) */
    gid_t gid;
    char root[64];      /* how messages name the target's root: "" in our mount namespace, else /proc/<pid>/root */
    int root_fd;        /* that root directory (O_PATH), opened once: every file access starts from here */
    int tmp_fd;         /* its /tmp (where HotSpot keeps its socket), reached inside that root and checked */
} proc_target;

typedef enum {
    TARGET_OK = 0,
    TARGET_NO_PROCESS,
    TARGET_PERMISSION,
    TARGET_NOT_JVM,
} target_status;

/* Fills 't' for 'pid' and checks that jprof may attach to it. On failure writes a message for the user. */
target_status proc_target_open(pid_t pid, proc_target *t, char *err, size_t errlen);

/* Opens the target's root directory 'root' and its /tmp into 't' (proc_target_open does this; tests give a
 * directory that plays a container's root). Refuses a /tmp that is not a directory, belongs to anyone but
 * the owner of the root or the JVM's user, or is writable by others without the sticky bit. */
int proc_target_open_files(proc_target *t, const char *root, char *err, size_t errlen);

/* Closes what proc_target_open(_files) opened. */
void proc_target_close(proc_target *t);

/* True when the process catches SIGQUIT. A JVM still starting up, or run with -Xrs, does not: the signal's
 * default action would kill it, so the attach listener must not be woken that way. */
bool proc_target_catches_sigquit(const proc_target *t);

/* True while the process exists (and is not a zombie). */
bool proc_target_alive(const proc_target *t);

/* Writes the path through which we would reach 'inner' (a path inside the target's file system), for
 * messages only: files are reached through root_fd and tmp_fd. -1 if too long. */
int proc_target_path(const proc_target *t, const char *inner, char *out, size_t outlen);

#endif
