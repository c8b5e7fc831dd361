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
    char root[64];      /* prefix to reach the target's files: "" in our mount namespace, else /proc/<pid>/root */
} proc_target;

typedef enum {
    TARGET_OK = 0,
    TARGET_NO_PROCESS,
    TARGET_PERMISSION,
    TARGET_NOT_JVM,
} target_status;

/* Fills 't' for 'pid' and checks that jprof may attach to it. On failure writes a message for the user. */
target_status proc_target_open(pid_t pid, proc_target *t, char *err, size_t errlen);

/* True when the process catches SIGQUIT. A JVM still starting up, or run with -Xrs, does not: the signal's
 * default action would kill it, so the attach listener must not be woken that way. */
bool proc_target_catches_sigquit(const proc_target *t);

/* True while the process exists (and is not a zombie). */
bool proc_target_alive(const proc_target *t);

/* Writes the path through which we reach 'inner' (a path inside the target's file system). -1 if too long. */
int proc_target_path(const proc_target *t, const char *inner, char *out, size_t outlen);

#endif
