/*
 * hotspot_attach: every wait is bounded (poll with a deadline) because a JVM that is stuck, dying or busy
 * in a long safepoint must leave jprof with a message, not a hang. Writes use MSG_NOSIGNAL so a JVM that
 * closes the socket early gives an error code instead of killing jprof with SIGPIPE.
 */
#define _GNU_SOURCE
#include "hotspot_attach.h"

#include "attach_listener.h"
#include "monotonic.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define REPLY_MAX (64 * 1024)

/* Appends 's' and its terminating NUL to the request. */
static int add_string(char *buf, size_t cap, size_t *len, const char *s) {
    size_t n = strlen(s) + 1;
    if (*len + n > cap) return -1;
    memcpy(buf + *len, s, n);
    *len += n;
    return 0;
}

static int send_all(int fd, const char *buf, size_t len) {
    while (len > 0) {
        ssize_t n = send(fd, buf, len, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return -1;
        buf += n;
        len -= (size_t)n;
    }
    return 0;
}

/* Reads until the JVM closes the connection. Returns the byte count, -1 on error, -2 on timeout. */
static ssize_t read_reply(int fd, char *buf, size_t cap, int timeout_ms) {
    long long deadline = monotonic_ms() + timeout_ms;
    size_t len = 0;
    for (;;) {
        long long left = deadline - monotonic_ms();
        if (left <= 0) return -2;
        struct pollfd p = {.fd = fd, .events = POLLIN};
        int r = poll(&p, 1, (int)left);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) return -1;
        if (r == 0) return -2;
        char scratch[4096];
        /* Past the buffer, keep draining so the JVM is not blocked writing, and drop the excess. */
        char *dst = len + 1 < cap ? buf + len : scratch;
        size_t room = len + 1 < cap ? cap - 1 - len : sizeof(scratch);
        ssize_t n = read(fd, dst, room);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return errno == ECONNRESET && len > 0 ? (ssize_t)len : -1;
        if (n == 0) break;
        if (dst != scratch) len += (size_t)n;
    }
    buf[len] = 0;
    return (ssize_t)len;
}

static int parse_int_line(const char *line, int *out) {
    char *end;
    errno = 0;
    long v = strtol(line, &end, 10);
    if (end == line || errno || (*end && *end != '\n' && *end != '\r')) return -1;
    *out = (int)v;
    return 0;
}

static const char *next_line(const char *s) {
    const char *nl = strchr(s, '\n');
    return nl ? nl + 1 : s + strlen(s);
}

int hotspot_parse_load_reply(const char *text, load_reply *reply) {
    memset(reply, 0, sizeof(*reply));
    if (parse_int_line(text, &reply->attach_code)) return -1;
    const char *rest = next_line(text);
    if (reply->attach_code == 0) {
        /* JDK 9+ answers "return code: N"; JDK 8 answered a bare "N". */
        static const char prefix[] = "return code: ";
        const char *num = strncmp(rest, prefix, sizeof(prefix) - 1) == 0 ? rest + sizeof(prefix) - 1 : rest;
        if (parse_int_line(num, &reply->agent_code) == 0) {
            reply->have_agent_code = true;
            rest = next_line(rest);
        }
    }
    snprintf(reply->message, sizeof(reply->message), "%s", rest);
    size_t n = strlen(reply->message);
    while (n > 0 && (reply->message[n - 1] == '\n' || reply->message[n - 1] == '\r')) reply->message[--n] = 0;
    return 0;
}

int hotspot_attach_load(const proc_target *t, const char *library, const char *options,
                        const attach_timeouts *timeouts, load_reply *reply, char *err, size_t errlen) {
    if (strlen(library) > HOTSPOT_ARG_MAX || strlen(options) > HOTSPOT_ARG_MAX) {
        snprintf(err, errlen, "the %s is %zu bytes long; the attach protocol accepts at most %d",
                 strlen(library) > HOTSPOT_ARG_MAX ? "library path" : "agent option string",
                 strlen(library) > HOTSPOT_ARG_MAX ? strlen(library) : strlen(options), HOTSPOT_ARG_MAX);
        return -1;
    }
    char request[4 * (HOTSPOT_ARG_MAX + 1) + 16];
    size_t len = 0;
    add_string(request, sizeof(request), &len, "1");
    add_string(request, sizeof(request), &len, "load");
    add_string(request, sizeof(request), &len, library);
    add_string(request, sizeof(request), &len, "true");
    add_string(request, sizeof(request), &len, options);

    int fd = attach_listener_connect(t, timeouts->listener_timeout_ms, timeouts->cancel, err, errlen);
    if (fd < 0) return -1;
    int rc = -1;
    char *text = malloc(REPLY_MAX);
    if (!text) {
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    if (send_all(fd, request, len)) {
        snprintf(err, errlen, "JVM %d closed the attach connection before taking the request: %s", (int)t->pid,
                 strerror(errno));
        goto done;
    }
    ssize_t n = read_reply(fd, text, REPLY_MAX, timeouts->reply_timeout_ms);
    if (n == -2) {
        snprintf(err, errlen, "JVM %d did not answer within %.1f s", (int)t->pid, timeouts->reply_timeout_ms / 1000.0);
    } else if (n < 0) {
        snprintf(err, errlen, "reading the answer of JVM %d failed: %s", (int)t->pid, strerror(errno));
    } else if (n == 0) {
        snprintf(err, errlen, "JVM %d closed the attach connection without answering%s", (int)t->pid,
                 proc_target_alive(t) ? "" : " (it has exited)");
    } else if (hotspot_parse_load_reply(text, reply)) {
        snprintf(err, errlen, "JVM %d sent an answer jprof does not understand: %.200s", (int)t->pid, text);
    } else {
        rc = 0;
    }
done:
    free(text);
    close(fd);
    return rc;
}
