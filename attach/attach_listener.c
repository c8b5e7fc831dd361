/*
 * attach_listener: the socket is trusted only when its owner is the JVM's user, since anyone can create a
 * file of that name in /tmp and would then receive our agent options. The trigger file is removed again
 * whatever happens, so a later SIGQUIT (a user's thread dump) does not restart the listener by surprise.
 */
#define _GNU_SOURCE
#include "attach_listener.h"

#include "monotonic.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define POLL_STEP_MS 20
#define TRIGGER_PATH_MAX 512

typedef enum { SOCKET_MISSING, SOCKET_FOREIGN, SOCKET_PRESENT } socket_state;

/* 'inode' (may be NULL) receives the socket's inode, so a new listener can be told from a stale socket. */
static socket_state check_socket(const char *path, uid_t owner, ino_t *inode) {
    struct stat st;
    if (stat(path, &st) || !S_ISSOCK(st.st_mode)) return SOCKET_MISSING;
    if (inode) *inode = st.st_ino;
    return st.st_uid == owner ? SOCKET_PRESENT : SOCKET_FOREIGN;
}

static int connect_to(const char *path, char *err, size_t errlen) {
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    if (strlen(path) >= sizeof(addr.sun_path)) {
        snprintf(err, errlen, "attach socket path too long: %s", path);
        return -1;
    }
    strcpy(addr.sun_path, path);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        snprintf(err, errlen, "cannot create a socket: %s", strerror(errno));
        return -1;
    }
    if (connect(fd, (struct sockaddr *)&addr, sizeof(addr)) == 0) return fd;
    int e = errno;
    close(fd);
    if (e == EACCES || e == EPERM)
        snprintf(err, errlen, "permission denied connecting to %s: the JVM runs as another user", path);
    else
        snprintf(err, errlen, "cannot connect to the JVM's attach socket %s: %s", path, strerror(e));
    errno = e;
    return -1;
}

/* Creates the trigger file where HotSpot looks for it: its working directory first, then /tmp. */
static int create_trigger(const proc_target *t, char made[TRIGGER_PATH_MAX], char *err, size_t errlen) {
    char tmp_inner[64];
    snprintf(tmp_inner, sizeof(tmp_inner), "/tmp/.attach_pid%d", (int)t->ns_pid);
    char candidates[2][TRIGGER_PATH_MAX];
    snprintf(candidates[0], sizeof(candidates[0]), "/proc/%d/cwd/.attach_pid%d", (int)t->pid, (int)t->ns_pid);
    if (proc_target_path(t, tmp_inner, candidates[1], sizeof(candidates[1]))) candidates[1][0] = 0;
    int last_errno = 0;
    for (int i = 0; i < 2; i++) {
        if (!candidates[i][0]) continue;
        int fd = open(candidates[i], O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd >= 0) {
            close(fd);
            memcpy(made, candidates[i], TRIGGER_PATH_MAX);
            return 0;
        }
        last_errno = errno;
    }
    snprintf(err, errlen, "cannot create the attach trigger file in the JVM's working directory or /tmp: %s",
             strerror(last_errno));
    return -1;
}

/* Wakes the listener and waits for its socket (one other than the stale socket 'stale', if not 0). 0 once it
 * exists, -1 with a message otherwise. */
static int wake_listener(const proc_target *t, const char *socket_path, ino_t stale, int timeout_ms, char *err,
                         size_t errlen) {
    if (!proc_target_catches_sigquit(t)) {
        snprintf(err, errlen,
                 "process %d does not handle SIGQUIT (a JVM still starting up, or run with -Xrs): jprof will not "
                 "signal it, because that would kill it",
                 (int)t->pid);
        return -1;
    }
    char trigger[TRIGGER_PATH_MAX];
    if (create_trigger(t, trigger, err, errlen)) return -1;
    int rc = -1;
    if (kill(t->pid, SIGQUIT)) {
        snprintf(err, errlen, "cannot signal process %d: %s", (int)t->pid, strerror(errno));
        goto done;
    }
    /* A deadline rather than a count of steps: under load each step takes longer than it sleeps. */
    long long deadline_ms = monotonic_ms() + timeout_ms;
    for (;;) {
        ino_t inode = 0;
        if (check_socket(socket_path, t->uid, &inode) == SOCKET_PRESENT && inode != stale) {
            rc = 0;
            goto done;
        }
        if (!proc_target_alive(t)) {
            snprintf(err, errlen, "process %d exited while jprof was attaching", (int)t->pid);
            goto done;
        }
        if (monotonic_ms() >= deadline_ms) break;
        monotonic_sleep_ms(POLL_STEP_MS);
    }
    snprintf(err, errlen,
             "attach timed out after %.1f s: JVM %d did not start its attach listener (started with "
             "-XX:+DisableAttachMechanism? running as another user? too busy?); see --attach-timeout",
             timeout_ms / 1000.0, (int)t->pid);
done:
    unlink(trigger);
    return rc;
}

int attach_listener_connect(const proc_target *t, int timeout_ms, char *err, size_t errlen) {
    char inner[64], socket_path[512];
    snprintf(inner, sizeof(inner), "/tmp/.java_pid%d", (int)t->ns_pid);
    if (proc_target_path(t, inner, socket_path, sizeof(socket_path))) {
        snprintf(err, errlen, "attach socket path too long");
        return -1;
    }
    ino_t stale = 0;
    switch (check_socket(socket_path, t->uid, &stale)) {
    case SOCKET_FOREIGN:
        snprintf(err, errlen, "refusing %s: it is not owned by the JVM's user (uid %u)", socket_path,
                 (unsigned)t->uid);
        return -1;
    case SOCKET_PRESENT: {
        int fd = connect_to(socket_path, err, errlen);
        /* A socket left behind by a dead JVM with the same pid refuses: wake the real listener instead, which
         * replaces it (HotSpot renames its new socket over the old name). */
        if (fd >= 0 || errno != ECONNREFUSED) return fd;
        break;
    }
    case SOCKET_MISSING:
        stale = 0;
        break;
    }
    if (wake_listener(t, socket_path, stale, timeout_ms, err, errlen)) return -1;
    return connect_to(socket_path, err, errlen);
}
