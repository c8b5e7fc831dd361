/*
 * safe_file and output: what happens to outputs that are devices, FIFOs and links, to names planted where
 * temporary files go, to the modes of files in progress, and to a failed move. Devices are copies made
 * with mknod in the test's own directory (root only; skipped otherwise): the real /dev is never touched.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "options.h"
#include "output.h"
#include "safe_file.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/socket.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static char dir[256];

static int make_dir(void **state) {
    (void)state;
    snprintf(dir, sizeof(dir), "/tmp/test_safe_file-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int remove_dir(void **state) {
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static const char *in_dir(const char *name) {
    static char paths[4][512];
    static int next;
    char *p = paths[next++ % 4];
    snprintf(p, 512, "%s/%s", dir, name);
    return p;
}

/* Writes 'text' through output.c, as a profile dump does. */
static int write_text(const char *path, const char *text, char *err, size_t errlen) {
    prof_options o;
    options_init(&o);
    snprintf(o.file, sizeof(o.file), "%s", path);
    return output_write_text(&o, text, err, errlen);
}

static int entries(void) {
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

static mode_t type_of(const char *path) {
    struct stat st;
    assert_int_equal(lstat(path, &st), 0);
    return st.st_mode & S_IFMT;
}

static void read_all(const char *path, char *buf, size_t len) {
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    size_t n = fread(buf, 1, len - 1, f);
    buf[n] = 0;
    fclose(f);
}

static bool need_root(void) {
    if (geteuid() == 0) return true;
    print_message("  (skipped: mknod and chown need root)\n");
    return false;
}

static void device_null_is_written_in_place(void **state) {
    (void)state;
    if (!need_root()) skip();
    const char *null = in_dir("null");
    assert_int_equal(mknod(null, S_IFCHR | 0666, makedev(1, 3)), 0);
    char err[512] = "";
    assert_int_equal(write_text(null, "a profile\n", err, sizeof(err)), 0);
    assert_int_equal(type_of(null), S_IFCHR);
    assert_int_equal(entries(), 1);   /* no temporary file left beside it */
}

/* Writing to the node at 'path' fails with 'reason' naming it; the node stays what it was, alone. */
static void assert_write_fails_in_place(const char *path, const char *reason) {
    mode_t type = type_of(path);
    char err[512] = "";
    assert_int_equal(write_text(path, "a profile\n", err, sizeof(err)), -1);
    assert_non_null(strstr(err, reason));
    assert_non_null(strstr(err, path));
    assert_int_equal(type_of(path), type);
    assert_int_equal(entries(), 1);
}

static void device_full_reports_the_write_error(void **state) {
    (void)state;
    if (!need_root()) skip();
    const char *full = in_dir("full");
    assert_int_equal(mknod(full, S_IFCHR | 0666, makedev(1, 7)), 0);
    assert_write_fails_in_place(full, "No space left on device");
}

static void fifo_without_reader_is_an_error_not_a_hang(void **state) {
    (void)state;
    const char *fifo = in_dir("fifo");
    assert_int_equal(mkfifo(fifo, 0600), 0);
    assert_write_fails_in_place(fifo, "no reader");
}

static void fifo_with_reader_gets_the_profile(void **state) {
    (void)state;
    const char *fifo = in_dir("fifo");
    assert_int_equal(mkfifo(fifo, 0600), 0);
    int reader = open(fifo, O_RDONLY | O_NONBLOCK);
    assert_true(reader >= 0);
    char err[512] = "";
    assert_int_equal(write_text(fifo, "through the fifo\n", err, sizeof(err)), 0);
    char buf[64] = "";
    ssize_t n = read(reader, buf, sizeof(buf) - 1);
    close(reader);
    assert_true(n > 0);
    assert_string_equal(buf, "through the fifo\n");
    assert_int_equal(type_of(fifo), S_IFIFO);
}

static void link_to_a_device_stays_a_link(void **state) {
    (void)state;
    if (!need_root()) skip();
    const char *null = in_dir("null"), *out = in_dir("stdout");
    assert_int_equal(mknod(null, S_IFCHR | 0666, makedev(1, 3)), 0);
    assert_int_equal(symlink(null, out), 0);
    char err[512] = "";
    assert_int_equal(write_text(out, "a profile\n", err, sizeof(err)), 0);
    assert_int_equal(type_of(out), S_IFLNK);
    assert_int_equal(type_of(null), S_IFCHR);
    assert_int_equal(entries(), 2);
}

static void link_of_ours_to_a_file_writes_the_file(void **state) {
    (void)state;
    const char *real = in_dir("real.txt"), *link = in_dir("latest.txt");
    FILE *f = fopen(real, "w");
    fputs("an older and longer profile\n", f);
    fclose(f);
    assert_int_equal(symlink("real.txt", link), 0);
    char err[512] = "", buf[128];
    assert_int_equal(write_text(link, "new\n", err, sizeof(err)), 0);
    assert_int_equal(type_of(link), S_IFLNK);
    read_all(real, buf, sizeof(buf));
    assert_string_equal(buf, "new\n");
}

/* A file and a link to it owned by another user (nobody), as planted in a shared directory. */
static void plant_link(const char *victim, const char *planted) {
    FILE *f = fopen(victim, "w");
    fputs("precious\n", f);
    fclose(f);
    assert_int_equal(symlink(victim, planted), 0);
    assert_int_equal(lchown(planted, 65534, 65534), 0);
}

/* Writing to 'path' is refused naming the planted link, and the file behind it is untouched. */
static void assert_refused_through(const char *path, const char *planted, const char *victim) {
    char err[512] = "", buf[64];
    assert_int_equal(write_text(path, "a profile\n", err, sizeof(err)), -1);
    assert_non_null(strstr(err, "another user"));
    assert_non_null(strstr(err, planted));
    read_all(victim, buf, sizeof(buf));
    assert_string_equal(buf, "precious\n");
    assert_int_equal(type_of(planted), S_IFLNK);
}

static void link_of_another_user_is_refused(void **state) {
    (void)state;
    if (!need_root()) skip();
    const char *victim = in_dir("victim"), *planted = in_dir("profile.txt");
    plant_link(victim, planted);
    assert_refused_through(planted, planted, victim);
}

static void chain_through_another_users_link_is_refused(void **state) {
    (void)state;
    if (!need_root()) skip();
    const char *victim = in_dir("victim"), *planted = in_dir("planted"), *ours = in_dir("profile.txt");
    plant_link(victim, planted);
    assert_int_equal(symlink("planted", ours), 0);   /* ours, relative, leading to the planted one */
    assert_refused_through(ours, planted, victim);
}

/* A regular file of another user under the output's name (a shared directory, a profiler run as root) is
 * neither replaced nor written, directly or behind a link of ours. */
static void file_of_another_user_is_refused(void **state) {
    (void)state;
    if (!need_root()) skip();
    const char *theirs = in_dir("profile.txt"), *ours = in_dir("ours.txt");
    FILE *f = fopen(theirs, "w");
    fputs("precious\n", f);
    fclose(f);
    assert_int_equal(chown(theirs, 65534, 65534), 0);
    assert_int_equal(symlink("profile.txt", ours), 0);
    const char *paths[] = {theirs, ours};
    for (int i = 0; i < 2; i++) {
        char err[512] = "", buf[64];
        assert_int_equal(write_text(paths[i], "a profile\n", err, sizeof(err)), -1);
        assert_non_null(strstr(err, "file of another user (uid 65534"));
        read_all(theirs, buf, sizeof(buf));
        assert_string_equal(buf, "precious\n");
    }
    assert_int_equal(entries(), 2);   /* no temporary file left beside them */
}

static void directory_is_refused(void **state) {
    (void)state;
    char err[512] = "";
    assert_int_equal(write_text(dir, "a profile\n", err, sizeof(err)), -1);
    assert_non_null(strstr(err, "is a directory"));
}

/* Guessable temporary names (the target's name and the pid), planted by someone else: neither hangs nor is written. */
static void planted_temporary_names_are_left_alone(void **state) {
    (void)state;
    const char *out = in_dir("out.txt");
    char fifo[512], file[512];
    snprintf(fifo, sizeof(fifo), "%s.tmp-%d", out, (int)getpid());
    snprintf(file, sizeof(file), "%s.tmp-%d-copy", out, (int)getpid());
    assert_int_equal(mkfifo(fifo, 0666), 0);
    FILE *f = fopen(file, "w");
    fputs("planted\n", f);
    fclose(f);
    char err[512] = "", buf[64];
    assert_int_equal(write_text(out, "the profile\n", err, sizeof(err)), 0);
    read_all(out, buf, sizeof(buf));
    assert_string_equal(buf, "the profile\n");
    assert_int_equal(type_of(fifo), S_IFIFO);
    read_all(file, buf, sizeof(buf));
    assert_string_equal(buf, "planted\n");
    assert_int_equal(entries(), 3);
}

static void private_until_complete_then_final_mode(void **state) {
    (void)state;
    mode_t old = umask(027);
    const char *out = in_dir("out.txt");
    safe_file f;
    char err[512] = "";
    assert_int_equal(safe_file_open(&f, out, "the profile", err, sizeof(err)), 0);
    struct stat st;
    assert_int_equal(stat(f.temp, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);
    assert_int_equal(access(out, F_OK), -1);   /* nothing under the final name yet */
    assert_int_equal(write(f.fd, "x\n", 2), 2);
    assert_int_equal(safe_file_commit(&f, "the profile", err, sizeof(err)), 0);
    assert_int_equal(stat(out, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0640);   /* 0644 minus the umask */
    assert_int_equal(entries(), 1);
    umask(old);
}

static void failed_move_keeps_the_data_and_says_where(void **state) {
    (void)state;
    const char *out = in_dir("out.txt");
    safe_file f;
    char err[1024] = "", buf[64];
    assert_int_equal(safe_file_open(&f, out, "the profile", err, sizeof(err)), 0);
    assert_int_equal(write(f.fd, "kept\n", 5), 5);
    /* Something that a rename cannot replace appears under the name meanwhile. */
    assert_int_equal(mkdir(out, 0700), 0);
    assert_int_equal(mkdir(in_dir("out.txt/inside"), 0700), 0);
    char temp[sizeof(f.temp)];
    snprintf(temp, sizeof(temp), "%s", f.temp);
    assert_int_equal(safe_file_commit(&f, "the profile", err, sizeof(err)), -1);
    assert_non_null(strstr(err, "kept in"));
    assert_non_null(strstr(err, temp));
    read_all(temp, buf, sizeof(buf));
    assert_string_equal(buf, "kept\n");
}

static void failed_write_leaves_nothing(void **state) {
    (void)state;
    const char *out = in_dir("out.txt");
    safe_file f;
    char err[512] = "";
    assert_int_equal(safe_file_open(&f, out, "the profile", err, sizeof(err)), 0);
    safe_file_abandon(&f);
    assert_int_equal(entries(), 0);
}

static void missing_directory_is_named(void **state) {
    (void)state;
    char err[512] = "";
    assert_int_equal(write_text(in_dir("no/such/dir/out.txt"), "x", err, sizeof(err)), -1);
    assert_non_null(strstr(err, "no/such/dir/out.txt"));
    assert_non_null(strstr(err, "No such file or directory"));
}

/* "<dir>/shared/<name>", in a world-writable sticky directory such as /tmp. */
static const char *in_shared(const char *name) {
    const char *shared = in_dir("shared");
    mkdir(shared, 0777);
    assert_int_equal(chmod(shared, 01777), 0);
    static char path[600];
    snprintf(path, sizeof(path), "%s/%s", shared, name);
    return path;
}

/* Another user's FIFO in a shared directory, with a reader (as its owner would hold it): refused with the
 * owner named, and its reader gets nothing. */
static void fifo_of_another_user_is_refused(void **state) {
    (void)state;
    if (!need_root()) skip();
    const char *fifo = in_shared("out.txt");
    assert_int_equal(mkfifo(fifo, 0666), 0);
    assert_int_equal(chown(fifo, 65534, 65534), 0);
    int reader = open(fifo, O_RDONLY | O_NONBLOCK);
    assert_true(reader >= 0);
    char err[512] = "", buf[64];
    assert_int_equal(write_text(fifo, "a profile\n", err, sizeof(err)), -1);
    assert_non_null(strstr(err, "is a FIFO of another user (uid 65534"));
    assert_non_null(strstr(err, fifo));
    assert_true(read(reader, buf, sizeof(buf)) <= 0);
    close(reader);
    assert_int_equal(type_of(fifo), S_IFIFO);
}

static void socket_of_another_user_is_refused(void **state) {
    (void)state;
    if (!need_root()) skip();
    const char *path = in_shared("out.txt");
    int s = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    snprintf(a.sun_path, sizeof(a.sun_path), "%s", path);
    assert_int_equal(bind(s, (struct sockaddr *)&a, sizeof(a)), 0);
    assert_int_equal(chown(path, 65534, 65534), 0);
    char err[512] = "";
    assert_int_equal(write_text(path, "a profile\n", err, sizeof(err)), -1);
    assert_non_null(strstr(err, "is a socket of another user (uid 65534"));
    close(s);
}

/* A FIFO of ours whose reader holds it open and reads nothing: the write gives up after SAFE_FILE_STALL_MS
 * without progress and says so, instead of holding the writer (a JVM's exit) for ever. */
static void fifo_reader_that_never_reads_bounds_the_write(void **state) {
    (void)state;
    const char *fifo = in_dir("fifo");
    assert_int_equal(mkfifo(fifo, 0600), 0);
    int reader = open(fifo, O_RDONLY | O_NONBLOCK);
    assert_true(reader >= 0);
    size_t len = 1 << 20;   /* far more than a pipe holds */
    char *text = malloc(len + 1);
    memset(text, 'x', len);
    text[len] = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    char err[512] = "";
    assert_int_equal(write_text(fifo, text, err, sizeof(err)), -1);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    print_message("  gave up after %.2f s: %s\n", seconds, err);
    assert_true(seconds >= SAFE_FILE_STALL_MS / 1000.0 * 0.9 && seconds < SAFE_FILE_STALL_MS / 1000.0 + 2);
    assert_non_null(strstr(err, "its reader took nothing for"));
    assert_non_null(strstr(err, fifo));
    free(text);
    close(reader);
}

#define T(f) cmocka_unit_test_setup_teardown(f, make_dir, remove_dir)

int main(void) {
    const struct CMUnitTest tests[] = {
        T(device_null_is_written_in_place),
        T(device_full_reports_the_write_error),
        T(fifo_without_reader_is_an_error_not_a_hang),
        T(fifo_with_reader_gets_the_profile),
        T(fifo_of_another_user_is_refused),
        T(socket_of_another_user_is_refused),
        T(fifo_reader_that_never_reads_bounds_the_write),
        T(link_to_a_device_stays_a_link),
        T(link_of_ours_to_a_file_writes_the_file),
        T(link_of_another_user_is_refused),
        T(chain_through_another_users_link_is_refused),
        T(file_of_another_user_is_refused),
        T(directory_is_refused),
        T(planted_temporary_names_are_left_alone),
        T(private_until_complete_then_final_mode),
        T(failed_move_keeps_the_data_and_says_where),
        T(failed_write_leaves_nothing),
        T(missing_directory_is_named),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
