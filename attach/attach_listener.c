/*
 * attach_listener: the socket is trusted only when its owner is the JVM's user, since anyone can create a
 * file of that name in /tmp and would then receive our agent options. It is pinned with O_PATH (a symlink
 * is pinned as itself and so is no socket) and connected to through /proc/self/fd: a name swapped between
 * the check and the connect cannot send jprof elsewhere, and in a container an absolute symlink cannot lead
 * to a socket of the host. The trigger file is removed again whatever happens (if it is still ours), so a
 * later SIGQUIT (a user's thread dump) does not restart the listener by surprise.
 */
#define _GNU_SOURCE
#include "attach_listener.h"

#include "monotonic.h"
#include "target_fs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define POLL_STEP_MS 20

typedef enum { SOCKET_MISSING, SOCKET_FOREIGN, SOCKET_PRESENT } socket_state;

typedef struct {
    char name[32];      /* .java_pid<ns pid> */
    char shown[160];    /* how messages name it */
    int fd;             /* pinned (O_PATH) when SOCKET_PRESENT */
    ino_t inode;        /* so a new listener can be told from a stale socket */
} socket_ref;

static socket_state find_socket(const proc_target *t, socket_ref *s) {
    s->fd = openat(t->tmp_fd, s->name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
    struct stat st;
    socket_state state = SOCKET_MISSING;
    if (s->fd >= 0 && fstat(s->fd, &st) == 0 && S_ISSOCK(st.st_mode)) {
        s->inode = st.st_ino;
        state = st.st_uid == t->uid ? SOCKET_PRESENT : SOCKET_FOREIGN;
    }
    if (state != SOCKET_PRESENT && s->fd >= 0) {
        close(s->fd);
        s->fd = -1;
    }
    return state;
}

/* Connects to the pinned socket and closes the pin. */
static int connect_to(socket_ref *s, char *err, size_t errlen) {
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    target_fs_fd_path(s->fd, addr.sun_path);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int e = errno;
    if (fd >= 0 && connect(fd, (struct sockaddr *)&addr, sizeof(addr)) == 0) {
        close(s->fd);
        return fd;
    }
    if (fd >= 0) {
        e = errno;
        close(fd);
    }
    close(s->fd);
    if (e == EACCES || e == EPERM)
        snprintf(err, errlen, "permission denied connecting to %s: the JVM runs as another user", s->shown);
    else
        snprintf(err, errlen, "cannot connect to the JVM's attach socket %s: %s", s->shown, strerror(e));
    errno = e;
    return -1;
}

typedef struct {
    int dir_fd;
    char name[32];
    struct stat st;
} trigger_file;

/* Creates the trigger file where HotSpot looks for it: its working directory first, then /tmp. */
static int create_trigger(const proc_target *t, trigger_file *tr, char *err, size_t errlen) {
    char cwd[64];
    snprintf(cwd, sizeof(cwd), "/proc/%d/cwd", (int)t->pid);
    snprintf(tr->name, sizeof(tr->name), ".attach_pid%d", (int)t->ns_pid);
    int dirs[2] = {open(cwd, O_PATH | O_DIRECTORY | O_CLOEXEC), fcntl(t->tmp_fd, F_DUPFD_CLOEXEC, 0)};
    int last_errno = errno;
    tr->dir_fd = -1;
    for (int i = 0; i < 2 && tr->dir_fd < 0; i++) {
        if (dirs[i] < 0) continue;
        int fd = openat(dirs[i], tr->name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd < 0) {
            last_errno = errno;
            continue;
        }
        fstat(fd, &tr->st);
        close(fd);
        tr->dir_fd = dirs[i];
        dirs[i] = -1;
    }
    for (int i = 0; i < 2; i++) {
        if (dirs[i] >= 0) close(dirs[i]);
    }
    if (tr->dir_fd >= 0) return 0;
    snprintf(err, errlen, "cannot create the attach trigger file in the JVM's working directory or /tmp: %s",
             strerror(last_errno));
    return -1;
}

/* Wakes the listener and waits for its socket (one other than the stale socket 'stale', if not 0). 0 once it
 * exists (pinned in 's'), -1 with a message otherwise. */
static int wake_listener(const proc_target *t, socket_ref *s, ino_t stale, int timeout_ms,
                         volatile sig_atomic_t *cancel, char *err, size_t errlen) {
    if (!proc_target_catches_sigquit(t)) {
        snprintf(err, errlen,
                 "process %d does not handle SIGQUIT (a JVM still starting up, or run with -Xrs): jprof will not "
                 "signal it, because that would kill it",
                 (int)t->pid);
        return -1;
    }
    trigger_file trigger;
    if (create_trigger(t, &trigger, err, errlen)) return -1;
    int rc = -1;
    if (kill(t->pid, SIGQUIT)) {
        snprintf(err, errlen, "cannot signal process %d: %s", (int)t->pid, strerror(errno));
        goto done;
    }
    /* A deadline rather than a count of steps: under load each step takes longer than it sleeps. */
    long long deadline_ms = monotonic_ms() + timeout_ms;
    for (;;) {
        if (find_socket(t, s) == SOCKET_PRESENT) {
            if (s->inode != stale) {
                rc = 0;
                goto done;
            }
            close(s->fd);
        }
        if (!proc_target_alive(t)) {
            snprintf(err, errlen, "process %d exited while jprof was attaching", (int)t->pid);
            goto done;
        }
        if (cancel && *cancel) {
            snprintf(err, errlen, "interrupted while waiting for JVM %d's attach listener", (int)t->pid);
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
    target_fs_unlink_if_same(trigger.dir_fd, trigger.name, &trigger.st, 0);
    close(trigger.dir_fd);
    return rc;
}

int attach_listener_connect(const proc_target *t, int timeout_ms, volatile sig_atomic_t *cancel, char *err,
                            size_t errlen) {
    socket_ref s = {.fd = -1};
    snprintf(s.name, sizeof(s.name), ".java_pid%d", (int)t->ns_pid);
    snprintf(s.shown, sizeof(s.shown), "%s/tmp/%s", t->root, s.name);
    ino_t stale = 0;
    switch (find_socket(t, &s)) {
    case SOCKET_FOREIGN:
        snprintf(err, errlen, "refusing %s: it is not owned by the JVM's user (uid %u)", s.shown, (unsigned)t->uid);
        return -1;
    case SOCKET_PRESENT: {
        stale = s.inode;
        int fd = connect_to(&s, err, errlen);
        /* A socket left behind by a dead JVM with the same pid refuses: wake the real listener instead, which
         * replaces it (HotSpot renames its new socket over the old name). */
        if (fd >= 0 || errno != ECONNREFUSED) return fd;
        break;
    }
    case SOCKET_MISSING:
        break;
    }
    if (wake_listener(t, &s, stale, timeout_ms, cancel, err, errlen)) return -1;
    return connect_to(&s, err, errlen);
}
