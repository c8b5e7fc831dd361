/*
 * proc_target: every fact comes from /proc/<pid>/{status,maps,ns/mnt}. The order of the checks matters:
 * ownership before anything that needs ptrace-level access (maps), and "is it a JVM that catches SIGQUIT"
 * before jprof ever sends SIGQUIT, because its default action kills a process that does not catch it (a
 * non-JVM, a JVM still starting, or one run with -Xrs).
 */
#define _GNU_SOURCE
#include "proc_target.h"

#include "target_fs.h"

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Reads the value of "Key:" from /proc/<pid>/status into 'out'. */
static int status_field(pid_t pid, const char *key, char *out, size_t outlen) {
    char path[64], line[512];
    snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "re");
    if (!f) return -1;
    size_t klen = strlen(key);
    int rc = -1;
    while (fgets(line, sizeof(line), f)) {
        if (strncmp(line, key, klen) == 0 && line[klen] == ':') {
            const char *v = line + klen + 1;
            while (*v == ' ' || *v == '\t') v++;
            snprintf(out, outlen, "%s", v);
            out[strcspn(out, "\n")] = 0;
            rc = 0;
            break;
        }
    }
    fclose(f);
    return rc;
}

/* The n-th (0-based) whitespace-separated number of a status value. */
static long nth_number(const char *value, int n) {
    const char *p = value;
    for (int i = 0; i < n; i++) {
        p += strcspn(p, " \t");
        p += strspn(p, " \t");
    }
    return *p ? strtol(p, NULL, 10) : -1;
}

static long last_number(const char *value) {
    const char *last = value, *p = value;
    while (*p) {
        p += strcspn(p, " \t");
        p += strspn(p, " \t");
        if (*p) last = p;
    }
    return strtol(last, NULL, 10);
}

static const char *user_name(uid_t uid, char *buf, size_t len) {
    struct passwd *pw = getpwuid(uid);
    snprintf(buf, len, "%s", pw ? pw->pw_name : "(no name)");
    return buf;
}

static bool maps_have_libjvm(pid_t pid, int *open_errno) {
    char path[64], line[4096];
    snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
    FILE *f = fopen(path, "re");
    if (!f) {
        *open_errno = errno;
        return false;
    }
    *open_errno = 0;
    bool found = false;
    while (!found && fgets(line, sizeof(line), f)) found = strstr(line, "/libjvm.so") != NULL;
    fclose(f);
    return found;
}

/* SigCgt is a hex mask of caught signals; bit (n-1) is signal n. */
bool proc_target_catches_sigquit(const proc_target *t) {
    char value[64];
    if (status_field(t->pid, "SigCgt", value, sizeof(value))) return false;
    unsigned long long mask = strtoull(value, NULL, 16);
    return (mask >> (SIGQUIT - 1)) & 1;
}

static bool same_mount_namespace(pid_t pid) {
    char path[64];
    struct stat mine, theirs;
    snprintf(path, sizeof(path), "/proc/%d/ns/mnt", (int)pid);
    /* Unreadable namespace links: assume shared, the common case; paths then fail with a clear error. */
    if (stat("/proc/self/ns/mnt", &mine) || stat(path, &theirs)) return true;
    return mine.st_ino == theirs.st_ino && mine.st_dev == theirs.st_dev;
}

target_status proc_target_open(pid_t pid, proc_target *t, char *err, size_t errlen) {
    memset(t, 0, sizeof(*t));
    t->pid = pid;
    t->root_fd = t->tmp_fd = -1;
    char value[256], who[64], me[64];
    if (pid <= 0 || !proc_target_alive(t)) {
        snprintf(err, errlen, "no such process: %d", (int)pid);
        return TARGET_NO_PROCESS;
    }
    /* /proc/<tid> exists for every thread too, but the JVM names its socket after the process id. */
    if (status_field(pid, "Tgid", value, sizeof(value)) == 0 && atol(value) != pid) {
        snprintf(err, errlen, "%d is a thread of process %ld: give the process id", (int)pid, atol(value));
        return TARGET_NO_PROCESS;
    }
    if (status_field(pid, "Uid", value, sizeof(value))) {
        snprintf(err, errlen, "no such process: %d", (int)pid);
        return TARGET_NO_PROCESS;
    }
    t->uid = (uid_t)nth_number(value, 1);
    if (status_field(pid, "Gid", value, sizeof(value)) == 0) t->gid = (gid_t)nth_number(value, 1);
    t->ns_pid = pid;
    if (status_field(pid, "NSpid", value, sizeof(value)) == 0) t->ns_pid = (pid_t)last_number(value);

    uid_t self = geteuid();
    if (self != 0 && self != t->uid) {
        snprintf(err, errlen,
                 "permission denied: process %d runs as user %s (uid %u), jprof as %s (uid %u); the JVM accepts "
                 "attach requests only from its own user: run jprof as that user or as root",
                 (int)pid, user_name(t->uid, who, sizeof(who)), (unsigned)t->uid, user_name(self, me, sizeof(me)),
                 (unsigned)self);
        return TARGET_PERMISSION;
    }
    int maps_errno;
    bool jvm = maps_have_libjvm(pid, &maps_errno);
    if (maps_errno == EACCES || maps_errno == EPERM) {
        snprintf(err, errlen, "permission denied: cannot inspect process %d (/proc/%d/maps: %s)", (int)pid,
                 (int)pid, strerror(maps_errno));
        return TARGET_PERMISSION;
    }
    if (maps_errno) {
        snprintf(err, errlen, "no such process: %d", (int)pid);
        return TARGET_NO_PROCESS;
    }
    if (!jvm) {
        snprintf(err, errlen, "process %d is not a JVM (no libjvm.so is loaded in it)", (int)pid);
        return TARGET_NOT_JVM;
    }
    if (!same_mount_namespace(pid)) snprintf(t->root, sizeof(t->root), "/proc/%d/root", (int)pid);
    if (proc_target_open_files(t, t->root[0] ? t->root : "/", err, errlen)) return TARGET_PERMISSION;
    return TARGET_OK;
}

int proc_target_open_files(proc_target *t, const char *root, char *err, size_t errlen) {
    t->root_fd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
    t->tmp_fd = -1;
    struct stat rs, ts;
    if (t->root_fd < 0 || fstat(t->root_fd, &rs)) {
        snprintf(err, errlen, "cannot open the root directory of JVM %d (%s): %s", (int)t->pid, root, strerror(errno));
        proc_target_close(t);
        return -1;
    }
    t->tmp_fd = target_fs_open_in_root(t->root_fd, "/tmp", O_PATH | O_DIRECTORY);
    const char *why = NULL;
    int e = 0;
    if (t->tmp_fd < 0 || fstat(t->tmp_fd, &ts)) why = strerror(e = errno);
    else if (ts.st_uid != rs.st_uid && ts.st_uid != t->uid) why = "owned by another user";
    else if ((ts.st_mode & (S_IWGRP | S_IWOTH)) && !(ts.st_mode & S_ISVTX)) why = "writable by others without the sticky bit";
    if (why) {
        snprintf(err, errlen, "the /tmp of JVM %d (%s/tmp) cannot be used safely: %s%s", (int)t->pid, t->root, why,
                 e == ELOOP ? " (a symlink: on this kernel jprof follows none in a target)" : "");
        proc_target_close(t);
        return -1;
    }
    return 0;
}

void proc_target_close(proc_target *t) {
    if (t->tmp_fd >= 0) close(t->tmp_fd);
    if (t->root_fd >= 0) close(t->root_fd);
    t->tmp_fd = t->root_fd = -1;
}

bool proc_target_alive(const proc_target *t) {
    char value[64];
    if (status_field(t->pid, "State", value, sizeof(value))) return false;
    return value[0] != 'Z' && value[0] != 'X';
}

int proc_target_path(const proc_target *t, const char *inner, char *out, size_t outlen) {
    int n = snprintf(out, outlen, "%s%s", t->root, inner);
    return n < 0 || (size_t)n >= outlen ? -1 : 0;
}
