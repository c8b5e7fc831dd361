/*
 * fdtransfer_helper: see the header. The helper trusts nothing of the request but its shape: the peer must be
 * the JVM it was started for (SO_PEERCRED), each thread one of that JVM's (/proc/<pid>/task/<tid>), each event
 * a software, hardware or cache event. It never serves a second connection: the one session it was started for.
 */
#define _GNU_SOURCE
#include "fdtransfer_helper.h"

#include "monotonic.h"
#include "perf_transfer.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#define CONNECT_WAIT_MS 60000   /* an attach under load, and the agent's start, may take long */

static bool is_thread_of(pid_t pid, int tid) {
    char path[64];
    struct stat st;
    snprintf(path, sizeof(path), "/proc/%d/task/%d", (int)pid, tid);
    return tid > 0 && stat(path, &st) == 0;
}

/* The errno a request is refused with, or 0 when it may be served. */
static int refusal(pid_t target, const perf_transfer_request *r) {
    if (r->magic != PERF_TRANSFER_MAGIC || r->attr.size != sizeof(r->attr) || r->cpu < -1) return EINVAL;
    /* not a uprobe: its path is a pointer into the JVM's memory; a breakpoint's address is the JVM's own */
    if (r->attr.type != PERF_TYPE_SOFTWARE && r->attr.type != PERF_TYPE_HARDWARE && r->attr.type != PERF_TYPE_HW_CACHE &&
        r->attr.type != PERF_TYPE_BREAKPOINT)
        return EPERM;
    if (r->attr.inherit) return EPERM;   /* threads the JVM starts get their own requests */
    return is_thread_of(target, r->tid) ? 0 : ESRCH;
}

static int reply(int conn, int error, int fd) {
    perf_transfer_reply rep = {PERF_TRANSFER_MAGIC, error};
    union {
        char buf[CMSG_SPACE(sizeof(int))];
        struct cmsghdr align;
    } control;
    struct iovec iov = {&rep, sizeof(rep)};
    struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1};
    if (fd >= 0) {
        memset(&control, 0, sizeof(control));
        msg.msg_control = control.buf;
        msg.msg_controllen = sizeof(control.buf);
        struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(c), &fd, sizeof(int));
    }
    return sendmsg(conn, &msg, MSG_NOSIGNAL) == (ssize_t)sizeof(rep) ? 0 : -1;
}

/* The first connection from 'target', or -1 when none came in time, the JVM is gone, or jprof ended without
 * one (its start failed: the agent connects during the start, before jprof hears back). */
static int accept_target(int listener, pid_t target, pid_t jprof) {
    long long deadline = monotonic_ms() + CONNECT_WAIT_MS;
    while (monotonic_ms() < deadline && kill(target, 0) == 0 && getppid() == jprof) {
        struct pollfd p = {listener, POLLIN, 0};
        if (poll(&p, 1, 1000) <= 0) continue;
        int conn = accept4(listener, NULL, NULL, SOCK_CLOEXEC);
        if (conn < 0) continue;
        struct ucred peer;
        socklen_t len = sizeof(peer);
        if (getsockopt(conn, SOL_SOCKET, SO_PEERCRED, &peer, &len) == 0 && peer.pid == target) return conn;
        close(conn);   /* someone else: not served */
    }
    return -1;
}

/* Serves requests until the JVM closes the connection or exits. */
static void serve(int conn, pid_t target) {
    for (;;) {
        struct pollfd p = {conn, POLLIN, 0};
        int ready = poll(&p, 1, 1000);
        if (ready < 0 && errno != EINTR) return;
        if (ready <= 0) {
            if (kill(target, 0) != 0) return;
            continue;
        }
        perf_transfer_request r;
        if (recv(conn, &r, sizeof(r), MSG_WAITALL) != (ssize_t)sizeof(r)) return;   /* closed: the session ended */
        int error = refusal(target, &r), fd = -1;
        if (!error) {
            fd = (int)syscall(SYS_perf_event_open, &r.attr, r.tid, r.cpu, -1, PERF_FLAG_FD_CLOEXEC);
            if (fd < 0) error = errno ? errno : EIO;
        }
        int sent = reply(conn, error, fd);
        if (fd >= 0) close(fd);
        if (sent) return;
    }
}

static void run_helper(int listener, pid_t target, pid_t jprof) {
    setsid();
    int null = open("/dev/null", O_RDWR);
    if (null >= 0) {
        dup2(null, 0);
        dup2(null, 1);
        dup2(null, 2);
        if (null > 2) close(null);
    }
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    int conn = accept_target(listener, target, jprof);
    close(listener);
    if (conn >= 0) serve(conn, target);
    _exit(0);
}

pid_t fdtransfer_helper_start(pid_t target, char *name, size_t namelen, char *err, size_t errlen) {
    unsigned char random[8] = {0};
    if (getrandom(random, sizeof(random), 0) != (ssize_t)sizeof(random)) {
        snprintf(err, errlen, "--fdtransfer: no random name for the helper's socket: %s", strerror(errno));
        return -1;
    }
    int n = snprintf(name, namelen, PERF_TRANSFER_PREFIX "%d-", (int)getpid());
    for (size_t i = 0; i < sizeof(random) && n > 0 && (size_t)n + 3 < namelen; i++)
        n += snprintf(name + n, namelen - (size_t)n, "%02x", random[i]);
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    size_t len = strlen(name);
    memcpy(addr.sun_path + 1, name, len);   /* the abstract namespace: no file to clean up */
    int listener = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (listener < 0 ||
        bind(listener, (struct sockaddr *)&addr, (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + len)) != 0 ||
        listen(listener, 4) != 0) {
        snprintf(err, errlen, "--fdtransfer: cannot listen on @%s: %s", name, strerror(errno));
        if (listener >= 0) close(listener);
        return -1;
    }
    fflush(NULL);
    pid_t jprof = getpid(), child = fork();
    if (child == 0) run_helper(listener, target, jprof);
    close(listener);
    if (child < 0) snprintf(err, errlen, "--fdtransfer: cannot start the helper: %s", strerror(errno));
    return child;
}

void fdtransfer_helper_reap(pid_t helper, int wait_ms) {
    long long deadline = monotonic_ms() + wait_ms;
    for (;;) {
        pid_t done = waitpid(helper, NULL, WNOHANG);
        if (done == helper || (done < 0 && errno != EINTR) || monotonic_ms() >= deadline) return;
        monotonic_sleep_ms(20);
    }
}
