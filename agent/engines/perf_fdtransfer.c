/*
 * perf_fdtransfer: see the header. The socket is blocking with a two-second timeout each way: the calls come
 * from thread starts under the perf engine's lock, which a helper that stopped answering must not hold for
 * long; a helper that does not answer in time is treated as gone.
 */
#define _GNU_SOURCE
#include "perf_fdtransfer.h"

#include "perf_transfer.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#define IO_TIMEOUT_S 2

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int conn = -1;   /* under lock */

int perf_fdtransfer_connect(const char *name, char *err, size_t errlen) {
    pthread_mutex_lock(&lock);
    int rc = 0;
    if (conn >= 0) goto out;
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    size_t n = strlen(name);
    if (n == 0 || n + 1 > sizeof(addr.sun_path)) {
        snprintf(err, errlen, "fdtransfer=%s: not a helper's socket name", name);
        rc = -1;
        goto out;
    }
    memcpy(addr.sun_path + 1, name, n);   /* the abstract namespace: a leading NUL, no file */
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct timeval timeout = {IO_TIMEOUT_S, 0};
    if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout)) != 0 ||
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof(timeout)) != 0 ||
        connect(fd, (struct sockaddr *)&addr, (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + n)) != 0) {
        snprintf(err, errlen, "cannot reach jprof's helper at @%s: %s%s", name, strerror(errno),
                 errno == ECONNREFUSED || errno == ENOENT ? " (gone, or in another network namespace than this JVM)" : "");
        if (fd >= 0) close(fd);
        rc = -1;
        goto out;
    }
    conn = fd;
out:
    pthread_mutex_unlock(&lock);
    return rc;
}

bool perf_fdtransfer_connected(void) {
    pthread_mutex_lock(&lock);
    bool connected = conn >= 0;
    pthread_mutex_unlock(&lock);
    return connected;
}

static void drop_connection(void) {
    if (conn >= 0) close(conn);
    conn = -1;
}

/* The reply and, on success, the descriptor that comes with it; -1 with errno. */
static int receive_fd(void) {
    perf_transfer_reply reply;
    union {
        char buf[CMSG_SPACE(sizeof(int))];
        struct cmsghdr align;
    } control;
    struct iovec iov = {&reply, sizeof(reply)};
    struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = control.buf,
                         .msg_controllen = sizeof(control.buf)};
    ssize_t got;
    do got = recvmsg(conn, &msg, MSG_CMSG_CLOEXEC);
    while (got < 0 && errno == EINTR);
    int fd = -1;
    struct cmsghdr *c = got > 0 ? CMSG_FIRSTHDR(&msg) : NULL;
    if (c && c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS && c->cmsg_len == CMSG_LEN(sizeof(int)))
        memcpy(&fd, CMSG_DATA(c), sizeof(int));
    if (got != (ssize_t)sizeof(reply) || reply.magic != PERF_TRANSFER_MAGIC || (reply.error == 0) != (fd >= 0)) {
        if (fd >= 0) close(fd);
        drop_connection();
        errno = ECONNRESET;
        return -1;
    }
    if (reply.error) {
        errno = reply.error;
        return -1;
    }
    return fd;
}

int perf_fdtransfer_open(const struct perf_event_attr *attr, int tid, int cpu) {
    perf_transfer_request req = {PERF_TRANSFER_MAGIC, tid, cpu, 0, *attr};
    req.attr.size = sizeof(req.attr);
    pthread_mutex_lock(&lock);
    int fd = -1;
    if (conn < 0) errno = ECONNRESET;
    else if (send(conn, &req, sizeof(req), MSG_NOSIGNAL) != (ssize_t)sizeof(req)) {
        drop_connection();
        errno = ECONNRESET;
    } else fd = receive_fd();
    int saved = errno;
    pthread_mutex_unlock(&lock);
    errno = saved;
    return fd;
}

void perf_fdtransfer_close(void) {
    pthread_mutex_lock(&lock);
    drop_connection();
    pthread_mutex_unlock(&lock);
}
