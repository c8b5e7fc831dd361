/* Unit tests of jprof's way into a target's file system (target_fs, proc_target_open_files, session_dir,
 * attach_listener): a directory made here plays a container's root, and what a process in the container
 * could plant there (a session directory swapped for a symlink, a /tmp or a socket that is a symlink to a
 * host path, a FIFO) must never lead jprof outside it. Everything happens under one directory of our own. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

#include "attach_listener.h"
#include "proc_target.h"
#include "session_dir.h"
#include "target_fs.h"

static char err[1024];
static char base[64];   /* this test's own directory: base/root plays the container, base/host the host */

static const char *at(const char *rel) {
    static char paths[8][256];
    static int next;
    char *p = paths[next++ % 8];
    snprintf(p, 256, "%s/%s", base, rel);
    return p;
}

static void write_file(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static bool has_text(const char *path, const char *text) {
    char buf[64] = "";
    FILE *f = fopen(path, "r");
    if (!f) return false;
    size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    buf[n] = 0;
    fclose(f);
    return strcmp(buf, text) == 0;
}

/* base/root with a sticky world-writable tmp, and base/host/precious: what must survive. */
static int setup(void **state) {
    (void)state;
    snprintf(base, sizeof(base), "/tmp/jprof-unit-fs.XXXXXX");
    if (!mkdtemp(base)) return -1;
    mkdir(at("root"), 0755);
    mkdir(at("root/tmp"), 0700);
    chmod(at("root/tmp"), 01777);
    mkdir(at("host"), 0755);
    write_file(at("host/precious"), "keep");
    return 0;
}

static int teardown(void **state) {
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
    return system(cmd) == 0 ? 0 : -1;
}

static bool have_openat2(void) {
    return !(syscall(SYS_openat2, -1, "", NULL, 0) == -1 && errno == ENOSYS);
}

static proc_target fake_target(void) {
    proc_target t = {.pid = getpid(), .ns_pid = 4242, .uid = geteuid(), .gid = getegid()};
    assert_int_equal(proc_target_open_files(&t, at("root"), err, sizeof(err)), 0);
    snprintf(t.root, sizeof(t.root), "%s", at("root"));
    return t;
}

static void test_swapped_session_dir_is_not_followed(void **state) {
    (void)state;
    proc_target t = fake_target();
    session_dir d;
    assert_int_equal(session_dir_create(&t, &d, err, sizeof(err)), 0);
    char inner[512], outer[400], moved[600];
    assert_int_equal(session_dir_new_file(&d, "agent.log", inner, sizeof(inner), err, sizeof(err)), 0);
    assert_string_equal(inner + strlen(inner) - strlen("/agent.log"), "/agent.log");
    snprintf(outer, sizeof(outer), "%s/tmp/%s", at("root"), d.name);
    write_file(at("host/agent.log"), "host log");
    char path[700];
    snprintf(path, sizeof(path), "%s/agent.log", outer);
    write_file(path, "agent says");
    /* The attack: while jprof waits, the directory is moved and a symlink to the host takes its name. */
    snprintf(moved, sizeof(moved), "%s.moved", outer);
    assert_int_equal(rename(outer, moved), 0);
    assert_int_equal(symlink(at("host"), outer), 0);
    char got[64] = "";
    FILE *mem = fmemopen(got, sizeof(got), "w");
    off_t offset = 0;
    assert_int_equal(session_dir_copy(&d, "agent.log", &offset, mem), 10);   /* our file, not the host's */
    fclose(mem);
    assert_string_equal(got, "agent says");
    assert_int_equal(session_dir_remove(&d, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "moved or replaced"));
    assert_true(has_text(at("host/precious"), "keep"));
    assert_true(has_text(at("host/agent.log"), "host log"));
    struct stat st;
    assert_int_equal(lstat(outer, &st), 0);
    assert_true(S_ISLNK(st.st_mode));   /* what has the name now is not ours to delete */
    snprintf(path, sizeof(path), "%s/agent.log", moved);
    assert_int_equal(access(path, F_OK), -1);   /* our own file is gone wherever it went */
    proc_target_close(&t);
}

static void test_session_dir_files(void **state) {
    (void)state;
    proc_target t = fake_target();
    session_dir d;
    assert_int_equal(session_dir_create(&t, &d, err, sizeof(err)), 0);
    struct stat st;
    char outer[400], path[600], inner[512];
    snprintf(outer, sizeof(outer), "%s/tmp/%s", at("root"), d.name);
    assert_int_equal(lstat(outer, &st), 0);
    assert_true(S_ISDIR(st.st_mode));
    assert_int_equal(st.st_mode & 0777, 0700);
    assert_int_equal(session_dir_new_file(&d, "profile", inner, sizeof(inner), err, sizeof(err)), 0);
    snprintf(path, sizeof(path), "%s/profile", outer);
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);
    /* Existing names are refused, and so is a planted symlink (its target is never created). */
    assert_int_equal(session_dir_new_file(&d, "profile", inner, sizeof(inner), err, sizeof(err)), -1);
    snprintf(path, sizeof(path), "%s/log", outer);
    assert_int_equal(symlink(at("host/victim"), path), 0);
    assert_int_equal(session_dir_new_file(&d, "log", inner, sizeof(inner), err, sizeof(err)), -1);
    assert_int_equal(access(at("host/victim"), F_OK), -1);
    off_t offset = 0;
    assert_int_equal(session_dir_copy(&d, "log", &offset, stdout), -1);
    /* A FIFO planted as output is refused at once rather than blocking jprof. */
    snprintf(path, sizeof(path), "%s/fifo", outer);
    assert_int_equal(mkfifo(path, 0600), 0);
    assert_int_equal(session_dir_copy(&d, "fifo", &offset, stdout), -1);
    /* A symlink inside the directory is removed itself; its target stays. */
    snprintf(path, sizeof(path), "%s/to-precious", outer);
    assert_int_equal(symlink(at("host/precious"), path), 0);
    assert_int_equal(session_dir_remove(&d, err, sizeof(err)), 0);
    assert_int_equal(access(outer, F_OK), -1);
    assert_true(has_text(at("host/precious"), "keep"));
    proc_target_close(&t);
}

static void test_container_tmp_symlink_stays_inside(void **state) {
    (void)state;
    /* An absolute symlink to a host directory: through /proc/<pid>/root the kernel would resolve it on the
     * host; inside the root it names nothing. */
    assert_int_equal(rename(at("root/tmp"), at("root/real-tmp")), 0);
    assert_int_equal(symlink(at("host"), at("root/tmp")), 0);
    proc_target t = {.pid = getpid(), .ns_pid = 4242, .uid = geteuid()};
    assert_int_equal(proc_target_open_files(&t, at("root"), err, sizeof(err)), -1);
    assert_non_null(strstr(err, "/tmp"));
    assert_int_equal(t.root_fd, -1);
    /* A symlink that stays inside the root is followed there, as the JVM itself follows it (with openat2;
     * without it, jprof follows no symlink at all). */
    assert_int_equal(unlink(at("root/tmp")), 0);
    assert_int_equal(symlink("/real-tmp", at("root/tmp")), 0);
    if (!have_openat2()) {
        assert_int_equal(proc_target_open_files(&t, at("root"), err, sizeof(err)), -1);
        assert_int_equal(t.root_fd, -1);
    } else {
        assert_int_equal(proc_target_open_files(&t, at("root"), err, sizeof(err)), 0);
        struct stat want, got;
        assert_int_equal(stat(at("root/real-tmp"), &want), 0);
        assert_int_equal(fstat(t.tmp_fd, &got), 0);
        assert_int_equal(got.st_ino, want.st_ino);
    }
    proc_target_close(&t);
    /* Without openat2, no symlink at all. */
    int root = open(at("root"), O_PATH | O_DIRECTORY);
    assert_true(root >= 0);
    errno = 0;
    assert_int_equal(target_fs_open_nofollow(root, "/tmp", O_PATH | O_DIRECTORY), -1);
    assert_int_equal(errno, ELOOP);
    close(root);
    assert_int_equal(unlink(at("root/tmp")), 0);
    assert_int_equal(rename(at("root/real-tmp"), at("root/tmp")), 0);
    /* A /tmp anyone may rename things in (no sticky bit) is refused. */
    chmod(at("root/tmp"), 0777);
    assert_int_equal(proc_target_open_files(&t, at("root"), err, sizeof(err)), -1);
    assert_non_null(strstr(err, "sticky"));
    chmod(at("root/tmp"), 01777);
}

static void test_open_nofollow_walk(void **state) {
    (void)state;
    int root = open(at("root"), O_PATH | O_DIRECTORY);
    assert_true(root >= 0);
    mkdir(at("root/a"), 0755);
    mkdir(at("root/a/b"), 0755);
    write_file(at("root/a/b/f"), "x");
    assert_int_equal(symlink("b", at("root/a/l")), 0);
    int fd = target_fs_open_nofollow(root, "/a//./b/f", O_RDONLY);
    assert_true(fd >= 0);
    close(fd);
    fd = target_fs_open_in_root(root, "a/b/f", O_RDONLY);
    assert_true(fd >= 0);
    close(fd);
    errno = 0;
    assert_int_equal(target_fs_open_nofollow(root, "a/l/f", O_RDONLY), -1);
    assert_int_equal(errno, ELOOP);
    assert_int_equal(target_fs_open_nofollow(root, "a/l", O_PATH), -1);
    assert_int_equal(errno, ELOOP);
    assert_int_equal(target_fs_open_nofollow(root, "a/b/../b/f", O_RDONLY), -1);
    assert_int_equal(errno, EXDEV);
    /* In the root, ".." cannot climb above it (without openat2 it is refused). */
    fd = target_fs_open_in_root(root, "/../../../a/b/f", O_RDONLY);
    assert_true(have_openat2() ? fd >= 0 : fd == -1);
    if (fd >= 0) close(fd);
    close(root);
}

/* A listening socket at 'path'; non-blocking so that accept tells whether anyone connected. */
static int listen_at(const char *path) {
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    snprintf(addr.sun_path, sizeof(addr.sun_path), "%s", path);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0);
    assert_true(fd >= 0);
    assert_int_equal(bind(fd, (struct sockaddr *)&addr, sizeof(addr)), 0);
    assert_int_equal(listen(fd, 4), 0);
    return fd;
}

static void test_socket_symlink_not_followed(void **state) {
    (void)state;
    proc_target t = fake_target();
    int host = listen_at(at("host/service.sock"));
    assert_int_equal(symlink(at("host/service.sock"), at("root/tmp/.java_pid4242")), 0);
    /* The link is no socket: jprof would wake the listener, which this process (no SIGQUIT handler) refuses. */
    assert_int_equal(attach_listener_connect(&t, 100, NULL, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "SIGQUIT"));
    assert_int_equal(accept(host, NULL, NULL), -1);
    assert_true(errno == EAGAIN || errno == EWOULDBLOCK);
    /* A real socket of the JVM's user in the target's /tmp is connected to. */
    assert_int_equal(unlink(at("root/tmp/.java_pid4242")), 0);
    int jvm = listen_at(at("root/tmp/.java_pid4242"));
    int fd = attach_listener_connect(&t, 100, NULL, err, sizeof(err));
    assert_true(fd >= 0);
    int peer = accept(jvm, NULL, NULL);
    assert_true(peer >= 0);
    close(peer);
    close(fd);
    close(jvm);
    close(host);
    proc_target_close(&t);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_swapped_session_dir_is_not_followed, setup, teardown),
        cmocka_unit_test_setup_teardown(test_session_dir_files, setup, teardown),
        cmocka_unit_test_setup_teardown(test_container_tmp_symlink_stays_inside, setup, teardown),
        cmocka_unit_test_setup_teardown(test_open_nofollow_walk, setup, teardown),
        cmocka_unit_test_setup_teardown(test_socket_symlink_not_followed, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
