/*
 * jprof: the command-line tool (asprof's usage). It resolves the target, becomes its user, makes a private
 * directory the JVM can write to, and sends one "load" request per agent action. The agent reports through
 * files in that directory (log= for its messages, file= for a profile or status text), which jprof prints:
 * that is the only way the agent's own words reach the user, since Agent_OnAttach can return only a number.
 */
#define _GNU_SOURCE
#include "fdtransfer_helper.h"
#include "hotspot_attach.h"
#include "identity.h"
#include "jprof_args.h"
#include "jprof_help.h"
#include "profiler.h"
#include "jvm_finder.h"
#include "monotonic.h"
#include "options.h"
#include "proc_target.h"
#include "session_dir.h"
#include "target_fs.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define REPLY_TIMEOUT_MS 120000   /* a stop may have to name and write a large profile */
#define OUT_FILE "profile"
#define LOG_FILE "agent.log"

typedef struct {
    const jprof_args *args;
    proc_target target;
    char library[PATH_MAX];
    session_dir dir;
    char log_inner[512];
    off_t log_offset;
    attach_timeouts timeouts;
} jprof_session;

/* SIGINT, SIGTERM or SIGHUP (a closed terminal or SSH session): jprof finishes what it started, the stop
 * included, and removes its files, rather than dying and leaving the profiler running in the JVM. */
static volatile sig_atomic_t interrupted;

static void on_interrupt(int sig) {
    interrupted = sig;
}

static void catch_interrupts(void) {
    struct sigaction sa = {.sa_handler = on_interrupt}, hup;   /* no SA_RESTART: sleeps end at once */
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    /* 'nohup jprof ...' asks to outlive a hangup: a SIGHUP ignored from the start stays ignored. */
    if (sigaction(SIGHUP, NULL, &hup) == 0 && hup.sa_handler != SIG_IGN) sigaction(SIGHUP, &sa, NULL);
}

static int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int error(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("jprof: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return -1;
}

/* Agent messages written since the last request: its warnings and errors, its info and debug lines only
 * when -L asked for them (asprof relays no chatter). The profile jprof prints on stdout is written by the
 * agent into the session directory, removed afterwards: its messages say "profile written to stdout"
 * instead. Returns the lines shown, or -1 when the log could not be read. */
static long show_agent_log(jprof_session *s) {
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem) return session_dir_copy(&s->dir, LOG_FILE, &s->log_offset, stderr);
    long copied = session_dir_copy(&s->dir, LOG_FILE, &s->log_offset, mem);
    fclose(mem);
    char inner[sizeof(s->dir.inner) + sizeof(OUT_FILE) + 1];
    snprintf(inner, sizeof(inner), "%s/%s", s->dir.inner, OUT_FILE);
    bool info = jprof_args_shows_info(s->args);
    long shown = 0;
    for (char *line = text ? text : "", *next; *line; line = next) {
        next = line + strcspn(line, "\n");
        if (*next) *next++ = 0;
        if (!info && (strncmp(line, "[libprof] INFO:", 15) == 0 || strncmp(line, "[libprof] DEBUG:", 16) == 0))
            continue;
        const char *p = line;
        for (const char *hit; (hit = strstr(p, inner));) {
            fwrite(p, 1, (size_t)(hit - p), stderr);
            fputs("stdout", stderr);
            p = hit + strlen(inner);
        }
        fprintf(stderr, "%s\n", p);
        shown++;
    }
    fflush(stderr);
    free(text);
    return copied < 0 ? copied : shown;
}

/* A JVM still starting (jprof run right after java) answers an attach, but JDK 21 and later refuse to load an
 * agent before the live phase ("Dynamic agent loading is only permitted in the live phase"): jprof asks again
 * until it is live, a few seconds at most. */
#define LIVE_PHASE_WAIT_MS 5000
#define LIVE_PHASE_RETRY_MS 20

/* One agent action. 0 when the agent carried it out; otherwise the reason has been printed. An interrupted
 * jprof sends no 'cancellable' request; one that must follow what was started (the stop) goes regardless. */
static int agent_request(jprof_session *s, const char *action, const char *file, bool cancellable) {
    char options[JPROF_OPTIONS_MAX], err[1024];
    if (jprof_args_agent_options(s->args, action, file, s->log_inner, options, sizeof(options)))
        return error("the agent options are too long");
    if (cancellable && interrupted) return error("interrupted (signal %d) before the %s request", interrupted, action);
    s->timeouts.cancel = cancellable ? &interrupted : NULL;
    load_reply reply;
    for (int waited = 0;; waited += LIVE_PHASE_RETRY_MS) {
        if (hotspot_attach_load(&s->target, s->library, options, &s->timeouts, &reply, err, sizeof(err))) {
            show_agent_log(s);
            return error("%s", err);
        }
        if (reply.have_agent_code || !strstr(reply.message, "live phase") || waited >= LIVE_PHASE_WAIT_MS ||
            (cancellable && interrupted))
            break;
        monotonic_sleep_ms(LIVE_PHASE_RETRY_MS);
    }
    long logged = show_agent_log(s);
    if (reply.attach_code != 0)
        return error("JVM %d could not load %s (code %d)%s%s", (int)s->target.pid, s->library, reply.attach_code,
                     reply.message[0] ? ": " : "", reply.message);
    if (!reply.have_agent_code)   /* e.g. JDK 21+ started with -XX:-EnableDynamicAgentLoading */
        return error("JVM %d refused to run the agent: %s", (int)s->target.pid,
                     reply.message[0] ? reply.message : "(no reason given)");
    if (reply.agent_code != 0) {
        if (logged <= 0)
            return error("%s failed in the agent (code %d) without a message; see the JVM's output", action,
                         reply.agent_code);
        return -1;
    }
    return 0;
}

static int print_output(jprof_session *s) {
    off_t offset = 0;
    if (session_dir_copy(&s->dir, OUT_FILE, &offset, stdout) < 0) return error("the agent wrote no output");
    return 0;
}

/* The stop of -d failed. The likeliest innocent reason: it came later than the agent's own timeout (the
 * duration plus JPROF_SAFETY_MARGIN_S), which has then written the profile already. */
static int stop_failed(jprof_session *s, const char *file, bool to_stdout) {
    int timeout = s->args->start_timeout_s;
    off_t offset = 0;
    if (to_stdout && timeout && session_dir_copy(&s->dir, OUT_FILE, &offset, stdout) > 0) {
        error("the profile above was written by the agent's own timeout (%d s after the start), which came "
              "before jprof's stop", timeout);
        return 0;
    }
    if (!to_stdout && timeout)
        return error("the stop failed; if the agent's own timeout (%d s after the start) came first, it wrote the "
                     "profile to %s", timeout, file);
    return error("the stop failed; the profiler may still be running in JVM %d: 'jprof stop %d' stops it",
                 (int)s->target.pid, (int)s->target.pid);
}

/* Waits the profiling duration; false when the JVM went away meanwhile. Checks the JVM and redraws the
 * countdown once a second. */
static bool wait_duration(jprof_session *s, int seconds) {
    bool countdown = isatty(STDERR_FILENO);
    long long end = monotonic_ms() + seconds * 1000LL, left;
    int shown = -1;
    while (!interrupted && (left = end - monotonic_ms()) > 0) {
        int left_s = (int)((left + 999) / 1000);
        if (left_s != shown) {
            shown = left_s;
            if (countdown) fprintf(stderr, "\rProfiling for %d s: %d s left (Ctrl-C stops early) ", seconds, left_s);
            if (!proc_target_alive(&s->target)) break;
        }
        monotonic_sleep_ms(left < 100 ? (int)left : 100);
    }
    if (countdown) fputs("\r\033[K", stderr);
    return proc_target_alive(&s->target);
}

static int collect(jprof_session *s, const char *file, bool to_stdout) {
    if (agent_request(s, "start", file, true)) return -1;
    bool alive = wait_duration(s, s->args->duration_s);
    if (!alive) {
        /* The agent dumps at VM death to the session's file: show what it left. */
        show_agent_log(s);
        if (to_stdout) print_output(s);
        return error("JVM %d exited while profiling; the profile it wrote at exit (if any) is %s", (int)s->target.pid,
                     to_stdout ? "above" : file);
    }
    if (agent_request(s, "stop", file, false)) return stop_failed(s, file, to_stdout);
    return to_stdout ? print_output(s) : 0;
}

static int run_action(jprof_session *s) {
    const jprof_args *a = s->args;
    const char *action = jprof_action_name(a->action);
    char file[PATH_MAX + sizeof(a->file) + 2] = "", err[512];
    bool to_stdout = false;
    if (a->file[0]) {
        /* The JVM resolves relative paths against its own working directory, not ours. */
        if (a->file[0] == '/') snprintf(file, sizeof(file), "%s", a->file);
        else {
            char cwd[PATH_MAX];
            if (!getcwd(cwd, sizeof(cwd))) return error("cannot resolve -f %s: %s", a->file, strerror(errno));
            if ((size_t)snprintf(file, sizeof(file), "%s/%s", cwd, a->file) >= sizeof(file))
                return error("-f %s: path too long", a->file);
        }
    } else if (a->action != JPROF_START && a->action != JPROF_RESUME && a->action != JPROF_LOAD) {
        if (session_dir_new_file(&s->dir, OUT_FILE, file, sizeof(file), err, sizeof(err))) return error("%s", err);
        to_stdout = true;
    }
    switch (a->action) {
    case JPROF_COLLECT:
        return collect(s, file, to_stdout);
    case JPROF_START:
    case JPROF_RESUME:
        if (agent_request(s, action, file, true)) return -1;
        printf("Profiling started\n");   /* asprof's words, for resume too */
        return 0;
    case JPROF_LOAD:
        if (agent_request(s, action, "", true)) return -1;
        printf("libprof loaded into JVM %d (%s)\n", (int)s->target.pid, s->library);
        return 0;
    default:
        if (agent_request(s, action, file, true)) return -1;
        if (!to_stdout) return 0;
        int rc = print_output(s);
        if (rc == 0 && a->action == JPROF_VERSION) putchar('\n');   /* the agent's answer is the bare number */
        return rc;
    }
}

/* The library next to jprof: <prefix>/bin/jprof -> <prefix>/lib/libprof.so. */
static int find_library(const jprof_args *a, char *out, size_t outlen) {
    char candidate[PATH_MAX];
    if (a->libpath[0]) snprintf(candidate, sizeof(candidate), "%s", a->libpath);
    else {
        char self[PATH_MAX];
        ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
        if (n <= 0) return error("cannot locate jprof itself; use --libpath");
        self[n] = 0;
        snprintf(candidate, sizeof(candidate), "%s/../lib/libprof.so", dirname(self));
    }
    char resolved[PATH_MAX];
    if (!realpath(candidate, resolved)) return error("agent library %s: %s", candidate, strerror(errno));
    snprintf(out, outlen, "%s", resolved);
    return 0;
}

static pid_t resolve_pid(const char *target) {
    char err[512];
    int numeric = 0, rc = jprof_args_pid(target, &numeric, err, sizeof(err));
    if (rc < 0) return error("%s", err);
    if (rc > 0) return (pid_t)numeric;
    /* asprof's keyword for the one JVM running here. */
    pid_t pid = jvm_finder_find(strcmp(target, "jps") == 0 ? NULL : target, err, sizeof(err));
    if (pid < 0) error("%s", err);
    return pid;
}

/* The state letter of /proc/<pid>/stat (after the parenthesised name, which may hold anything), or 0. */
static char process_state(pid_t pid) {
    char path[64], buf[512];
    snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[n] = 0;
    const char *close = strrchr(buf, ')');
    return close && close[1] == ' ' ? close[2] : 0;
}

/* Rejects options the agent would refuse before anything is sent, with the agent's own words. */
static int check_options(const jprof_args *a) {
    static const char *const probes[][2] = {{"start", "x"}, {"stop", "x"}};
    for (size_t i = 0; i < 2; i++) {
        char text[JPROF_OPTIONS_MAX], err[OPTIONS_ERROR_MAX];
        if (jprof_args_agent_options(a, probes[i][0], a->file[0] ? a->file : probes[i][1], "x", text, sizeof(text)))
            return error("the agent options are too long");
        prof_options o;
        if (options_parse(text, &o, err, sizeof(err))) return error("%s", err);
    }
    return 0;
}

/* The library must be readable by the JVM's user at the same path inside the JVM's file system. Looked up
 * from the target's root (a symlink resolves inside it, as for the JVM); only its permissions are read. */
static int check_library(const jprof_session *s) {
    int fd = target_fs_open_in_root(s->target.root_fd, s->library, O_PATH);
    int e = fd < 0 ? errno : 0;
    if (fd >= 0) {
        char path[32];
        target_fs_fd_path(fd, path);
        if (access(path, R_OK)) e = errno;
        close(fd);
    }
    if (!e) return 0;
    if (s->target.root[0])
        return error("the agent library %s is not visible inside the container of JVM %d (%s): copy it into the "
                     "container and pass that path with --libpath", s->library, (int)s->target.pid, strerror(e));
    return error("the agent library %s is not readable by the user of JVM %d (uid %u): %s; put it where that user "
                 "can read it and pass --libpath", s->library, (int)s->target.pid, (unsigned)s->target.uid,
                 strerror(e));
}

static int run_in_session(jprof_session *s) {
    char err[1024];
    if (identity_become(s->target.uid, s->target.gid, err, sizeof(err))) return error("%s", err);
    if (check_library(s)) return -1;
    if (session_dir_create(&s->target, &s->dir, err, sizeof(err))) return error("%s", err);
    int rc = session_dir_new_file(&s->dir, LOG_FILE, s->log_inner, sizeof(s->log_inner), err, sizeof(err))
                 ? error("%s", err)
                 : run_action(s);
    if (session_dir_remove(&s->dir, err, sizeof(err))) error("%s", err);
    return rc;
}

static int attach_and_run(const jprof_args *a) {
    jprof_session s = {.args = a};
    s.timeouts.listener_timeout_ms = a->attach_timeout_ms;
    s.timeouts.reply_timeout_ms = REPLY_TIMEOUT_MS;
    char err[1024];
    if (check_options(a)) return -1;
    pid_t pid = resolve_pid(a->target);
    if (pid < 0) return -1;
    catch_interrupts();
    if (proc_target_open(pid, &s.target, err, sizeof(err)) != TARGET_OK) return error("%s", err);
    /* A stopped JVM answers nothing, and a command handed to it would run whenever it is continued, long after
     * jprof gave up (a session nobody stops): nothing is sent. */
    char state = process_state(pid);
    if (state == 'T' || state == 't')
        return error("JVM %d is stopped (%s): it cannot answer now, and a command sent now would run whenever it "
                     "continues; nothing was sent. Continue it (kill -CONT %d) and run jprof again", (int)pid,
                     state == 't' ? "a debugger holds it" : "SIGSTOP or job control", (int)pid);
    if (find_library(a, s.library, sizeof(s.library))) {
        proc_target_close(&s.target);
        return -1;
    }
    /* --fdtransfer: the helper keeps jprof's privileges, so it starts before jprof becomes the JVM's user. */
    jprof_args with_helper = *a;
    pid_t helper = -1;
    if (a->fdtransfer && (helper = fdtransfer_helper_start(pid, with_helper.fdtransfer_name,
                                                           sizeof(with_helper.fdtransfer_name), err, sizeof(err))) < 0) {
        proc_target_close(&s.target);
        return error("%s", err);
    }
    s.args = &with_helper;
    int rc = run_in_session(&s);
    proc_target_close(&s.target);
    if (helper > 0) {
        /* After -d's stop it exits by itself; after start or resume it serves the session on, detached; a failed
         * start leaves it nothing to serve: it ends with jprof (signalling it may not be ours to do any more,
         * jprof being the JVM's user now). */
        fdtransfer_helper_reap(helper, rc == 0 && a->action == JPROF_COLLECT ? 3000 : 0);
    }
    return rc;
}

int main(int argc, char **argv) {
    signal(SIGPIPE, SIG_IGN);
    jprof_args args;
    char err[512];
    if (jprof_args_parse(argc, argv, &args, err, sizeof(err))) {
        error("%s", err);
        fputs("Try 'jprof --help'.\n", stderr);
        return 2;
    }
    if (args.version) {
        printf("jprof (libprof) %s\nLicensed under the %s licence (the LICENSE file that comes with it).\n",
               LIBPROF_VERSION, LIBPROF_LICENSE);
        return 0;
    }
    if (args.help || argc == 1) {
        jprof_help_print(stdout);
        return 0;
    }
    if (args.action == JPROF_LIST) {
        jprof_help_print_events(stdout);
        return 0;
    }
    return attach_and_run(&args) ? 1 : 0;
}
