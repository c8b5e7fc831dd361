/* Unit tests of the agent's log: which files log= takes, where messages go between a
 * session and an attach request, and the default levels. Files live in a private temporary directory. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log.h"

static char dir[] = "/tmp/libprof-test-log.XXXXXX";
static char err[2048];

static const char *path_of(const char *name) {
    static char paths[4][512];
    static int next;
    char *p = paths[next++ % 4];
    snprintf(p, 512, "%s/%s", dir, name);
    return p;
}

static char *slurp(const char *path) {
    static char buf[8192];
    buf[0] = 0;
    int fd = open(path, O_RDONLY);
    if (fd < 0) return buf;
    ssize_t n = read(fd, buf, sizeof(buf) - 1);
    buf[n > 0 ? n : 0] = 0;
    close(fd);
    return buf;
}

static void write_file(const char *path, const char *text) {
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
}

/* Runs with stderr sent to a file, so what the log writes there can be read back. */
static int saved_stderr = -1;
static void capture_stderr(void) {
    fflush(stderr);
    saved_stderr = dup(STDERR_FILENO);
    int fd = open(path_of("stderr"), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    dup2(fd, STDERR_FILENO);
    close(fd);
}
static char *captured_stderr(void) {
    dup2(saved_stderr, STDERR_FILENO);
    close(saved_stderr);
    return slurp(path_of("stderr"));
}

/* A link of another user is refused (run as root, the test gives the link to nobody); one of our own
 * is followed, into what passes the file checks. */
static void test_symlink_of_another_user_refused(void **state) {
    (void)state;
    write_file(path_of("victim"), "precious\n");
    assert_int_equal(symlink(path_of("victim"), path_of("link.log")), 0);
    if (geteuid() == 0) {
        assert_int_equal(lchown(path_of("link.log"), 65534, 65534), 0);
        assert_int_equal(log_open_file(path_of("link.log"), err, sizeof(err)), -1);
        assert_non_null(strstr(err, "link.log' leads through a symbolic link of another user"));
        assert_string_equal(slurp(path_of("victim")), "precious\n");
        assert_int_equal(lchown(path_of("link.log"), 0, 0), 0);
    }
    int fd = log_open_file(path_of("link.log"), err, sizeof(err));
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "line\n", 5), 5);
    close(fd);
    assert_string_equal(slurp(path_of("victim")), "precious\nline\n");
}

static void test_fifo_refused_without_blocking(void **state) {
    (void)state;
    assert_int_equal(mkfifo(path_of("fifo.log"), 0600), 0);
    assert_int_equal(log_open_file(path_of("fifo.log"), err, sizeof(err)), -1);   /* no reader: ENXIO */
    assert_non_null(strstr(err, "fifo.log: is a FIFO or socket"));
    int reader = open(path_of("fifo.log"), O_RDONLY | O_NONBLOCK);
    assert_true(reader >= 0);
    assert_int_equal(log_open_file(path_of("fifo.log"), err, sizeof(err)), -1);   /* with one: not a file */
    assert_non_null(strstr(err, "is not a regular file"));
    close(reader);
}

static void test_hard_link_and_owner_refused(void **state) {
    (void)state;
    write_file(path_of("target"), "");
    assert_int_equal(link(path_of("target"), path_of("hard.log")), 0);
    assert_int_equal(log_open_file(path_of("hard.log"), err, sizeof(err)), -1);
    assert_non_null(strstr(err, "has other hard links"));
    if (geteuid() == 0) {
        write_file(path_of("theirs.log"), "");
        assert_int_equal(chown(path_of("theirs.log"), 65534, 65534), 0);
        assert_int_equal(log_open_file(path_of("theirs.log"), err, sizeof(err)), -1);
        assert_non_null(strstr(err, "file of another user (uid 65534"));   /* safe_file_classify refuses it first */
    }
}

static void test_created_private_and_appended(void **state) {
    (void)state;
    int fd = log_open_file(path_of("new.log"), err, sizeof(err));
    assert_true(fd >= 0);
    struct stat st;
    assert_int_equal(fstat(fd, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);
    close(fd);
    write_file(path_of("old.log"), "earlier\n");
    assert_int_equal(log_open_session(path_of("old.log"), LOG_LEVEL_UNSET, err, sizeof(err)), 0);
    log_info("later");
    assert_string_equal(slurp(path_of("old.log")), "earlier\n[libprof] INFO: later\n");
    log_open_session(NULL, LOG_LEVEL_UNSET, err, sizeof(err));
}

/* stderr gets warnings only by default; loglevel=info adds the rest. */
/* Special files: /proc/self/mem (a regular file of ours, on procfs) and a character device that is no terminal
 * are refused with what is accepted; /dev/null is taken. */
static void test_special_files_refused(void **state) {
    (void)state;
    char err[512] = "";
    assert_int_equal(log_open_file("/proc/self/mem", err, sizeof(err)), -1);
    assert_non_null(strstr(err, "log=/proc/self/mem: is a file of /proc or /sys"));
    assert_int_equal(log_open_file("/dev/zero", err, sizeof(err)), -1);
    assert_non_null(strstr(err, "log=/dev/zero: is a character device that is neither a terminal nor /dev/null"));
    int fd = log_open_file("/dev/null", err, sizeof(err));
    assert_true(fd >= 0);
    close(fd);
}

static void test_default_levels(void **state) {
    (void)state;
    assert_int_equal(log_open_session(NULL, LOG_LEVEL_UNSET, err, sizeof(err)), 0);
    capture_stderr();
    log_info("progress");
    log_warn("careful");
    assert_string_equal(captured_stderr(), "[libprof] WARN: careful\n");
    log_open_session(NULL, LOG_INFO, err, sizeof(err));
    capture_stderr();
    log_info("progress");
    assert_string_equal(captured_stderr(), "[libprof] INFO: progress\n");
    log_open_session(NULL, LOG_LEVEL_UNSET, err, sizeof(err));
}

/* An attach request's log= takes that request's messages only; the session's file keeps the rest. */
static void test_request_then_session(void **state) {
    (void)state;
    assert_int_equal(log_open_session(path_of("session.log"), LOG_LEVEL_UNSET, err, sizeof(err)), 0);
    log_info("one");
    assert_int_equal(log_begin_request(path_of("request.log"), LOG_LEVEL_UNSET, err, sizeof(err)), 0);
    log_info("status asked");
    log_end_request();
    log_info("two");
    assert_string_equal(slurp(path_of("session.log")), "[libprof] INFO: one\n[libprof] INFO: two\n");
    assert_string_equal(slurp(path_of("request.log")), "[libprof] INFO: status asked\n");
    /* A request that starts the session hands it its file. */
    assert_int_equal(log_begin_request(path_of("started.log"), LOG_LEVEL_UNSET, err, sizeof(err)), 0);
    log_keep_request_for_session();
    log_end_request();
    log_info("three");
    assert_string_equal(slurp(path_of("started.log")), "[libprof] INFO: three\n");
    /* Deleted (jprof's file once jprof exited): stderr, at stderr's default level. */
    unlink(path_of("started.log"));
    capture_stderr();
    log_info("hidden");
    log_warn("seen");
    assert_string_equal(captured_stderr(), "[libprof] WARN: seen\n");
    log_open_session(NULL, LOG_LEVEL_UNSET, err, sizeof(err));
}

static int make_dir(void **state) {
    (void)state;
    return mkdtemp(dir) ? 0 : -1;
}

static int remove_dir(void **state) {
    (void)state;
    char cmd[600];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_symlink_of_another_user_refused),
        cmocka_unit_test(test_fifo_refused_without_blocking),
        cmocka_unit_test(test_hard_link_and_owner_refused),
        cmocka_unit_test(test_created_private_and_appended),
        cmocka_unit_test(test_special_files_refused),
        cmocka_unit_test(test_default_levels),
        cmocka_unit_test(test_request_then_session),
    };
    return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
