/*
 * jvm_finder: the main class is the first argument that is neither an option nor the value of an option
 * that takes one, which is why the launcher's options with separate values are listed here.
 */
#define _GNU_SOURCE
#include "jvm_finder.h"

#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bool takes_value(const char *opt) {
    static const char *const with_value[] = {
        "-cp", "-classpath", "--class-path", "-p", "--module-path", "--upgrade-module-path", "--add-modules",
        "--add-opens", "--add-exports", "--add-reads", "--patch-module", "--limit-modules", "--source",
        "--enable-native-access", "--describe-module",
    };
    for (size_t i = 0; i < sizeof(with_value) / sizeof(with_value[0]); i++) {
        if (strcmp(opt, with_value[i]) == 0) return true;
    }
    return false;
}

int jvm_finder_main_class(const char *args, size_t len, char *out, size_t outlen) {
    const char *end = args + len;
    const char *a = args;
    a += strnlen(a, (size_t)(end - a)) + 1;   /* skip the launcher itself */
    while (a < end) {
        const char *next = a + strnlen(a, (size_t)(end - a)) + 1;
        if (strcmp(a, "-jar") == 0 || strcmp(a, "-m") == 0 || strcmp(a, "--module") == 0) {
            if (next >= end) return -1;
            const char *value = next;
            if (a[1] != 'j') {
                const char *slash = strchr(value, '/');
                if (slash) value = slash + 1;
            }
            snprintf(out, outlen, "%s", value);
            return 0;
        }
        if (a[0] == '-' || a[0] == '@') {
            if (takes_value(a)) next += strnlen(next, (size_t)(end > next ? end - next : 0)) + 1;
        } else {
            snprintf(out, outlen, "%s", a);
            return 0;
        }
        a = next;
    }
    return -1;
}

bool jvm_finder_matches(const char *main_class, const char *name) {
    if (strcmp(main_class, name) == 0) return true;
    const char *base = strrchr(main_class, '/');
    base = base ? base + 1 : main_class;
    if (strcmp(base, name) == 0) return true;           /* a jar by file name */
    const char *simple = strrchr(main_class, '.');
    if (simple && strcmp(simple + 1, name) == 0 && !strstr(main_class, ".jar")) return true;
    return false;
}

static bool is_java_launcher(const char *argv0, pid_t pid) {
    const char *base = strrchr(argv0, '/');
    if (strcmp(base ? base + 1 : argv0, "java") == 0) return true;
    char link[64], exe[1024];
    snprintf(link, sizeof(link), "/proc/%d/exe", (int)pid);
    ssize_t n = readlink(link, exe, sizeof(exe) - 1);
    if (n <= 0) return false;
    exe[n] = 0;
    base = strrchr(exe, '/');
    return strcmp(base ? base + 1 : exe, "java") == 0;
}

static ssize_t read_cmdline(pid_t pid, char *buf, size_t cap) {
    char path[64];
    snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t n = read(fd, buf, cap - 1);
    close(fd);
    if (n > 0) buf[n] = 0;
    return n;
}

pid_t jvm_finder_find(const char *name, char *err, size_t errlen) {
    DIR *proc = opendir("/proc");
    if (!proc) {
        snprintf(err, errlen, "cannot read /proc");
        return -1;
    }
    pid_t found = -1;
    int matches = 0;
    char others[256] = "";
    static char cmdline[128 * 1024];
    struct dirent *e;
    while ((e = readdir(proc))) {
        if (!isdigit((unsigned char)e->d_name[0])) continue;
        pid_t pid = (pid_t)atoi(e->d_name);
        if (pid == getpid()) continue;
        ssize_t n = read_cmdline(pid, cmdline, sizeof(cmdline));
        if (n <= 0 || !is_java_launcher(cmdline, pid)) continue;
        char main_class[512];
        if (jvm_finder_main_class(cmdline, (size_t)n, main_class, sizeof(main_class))) continue;
        if (name && !jvm_finder_matches(main_class, name)) continue;
        if (matches++ == 0) found = pid;
        size_t used = strlen(others);
        snprintf(others + used, sizeof(others) - used, "%s%d", used ? " " : "", (int)pid);
    }
    closedir(proc);
    if (matches == 0) {
        if (name) snprintf(err, errlen, "no such process: no running JVM has the main class or jar '%s'", name);
        else snprintf(err, errlen, "jps: no running JVM found");
        return -1;
    }
    if (matches > 1) {
        if (name)
            snprintf(err, errlen, "%d JVMs have the main class '%s' (pids %s): give the pid instead", matches, name,
                     others);
        else snprintf(err, errlen, "jps: %d JVMs are running (pids %s): give the pid or main class instead", matches,
                      others);
        return -1;
    }
    return found;
}
