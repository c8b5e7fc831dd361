/*
 * jprof_args: the jprof command line (async-profiler's asprof spelling) translated into agent options.
 * Pure functions of argv, so the unit tests cover the whole grammar. Used by jprof and its tests.
 */
#ifndef JPROF_ARGS_H
#define JPROF_ARGS_H

#include <stdbool.h>
#include <stddef.h>

typedef enum {
    JPROF_COLLECT = 0,  /* no action given: start, wait -d seconds, stop */
    JPROF_START,
    JPROF_RESUME,
    JPROF_STOP,
    JPROF_DUMP,
    JPROF_STATUS,
    JPROF_VERSION,
    JPROF_LIST,
    JPROF_METRICS,      /* the agent's counters in Prometheus' text format */
    JPROF_LOAD,         /* load the agent into the JVM, no action: for the Java API and its MBean */
} jprof_action;

#define JPROF_DEFAULT_DURATION_S 60
#define JPROF_DEFAULT_ATTACH_TIMEOUT_MS 10000
#define JPROF_OPTIONS_MAX 2048
/* -d N also sends timeout=N+this with the start: if jprof dies (SIGKILL, a lost SSH session) the agent
 * still stops by itself and writes the profile. The margin lets jprof's own stop, a moment after N, win. */
#define JPROF_SAFETY_MARGIN_S 5

typedef struct {
    jprof_action action;
    bool help;
    bool version;                /* -v / --version: jprof's own version */
    int duration_s;              /* -d; JPROF_DEFAULT_DURATION_S when not given */
    bool duration_given;
    int start_timeout_s;         /* timeout= jprof adds to the start of -d (0: none; the user's --timeout wins) */
    char target[256];            /* pid, main class name, or jps (the one running JVM); may be empty for list,
                                    --help, --version */
    char file[1024];             /* -f as given (jprof makes it absolute) */
    char libpath[1024];          /* --libpath; empty = next to jprof */
    int attach_timeout_ms;       /* --attach-timeout */
    char profiling[JPROF_OPTIONS_MAX]; /* agent options that shape a session: event=, interval=, threads, ... */
    char format[64];             /* -o value, passed through as an agent option */
    bool fdtransfer;             /* --fdtransfer: perf events opened by jprof's helper */
    char fdtransfer_name[80];    /* the helper's socket, sent as fdtransfer= with start and resume ("": none) */
} jprof_args;

/* Parses argv. On error returns -1 with a message naming the argument. */
int jprof_args_parse(int argc, char **argv, jprof_args *a, char *err, size_t errlen);

/* The agent option string for one request: the action; the session options and -o format (start, resume,
 * stop, dump) or only the log level (status, version); jprof's timeout= (start); file= when 'file' is not
 * empty; log= when 'log' is not NULL. -1 if it does not fit. */
int jprof_args_agent_options(const jprof_args *a, const char *action, const char *file, const char *log,
                             char *out, size_t outlen);

const char *jprof_action_name(jprof_action action);

/* A target given as digits: 1 with its pid, or -1 with a message when it is no pid (0, or past what a pid_t
 * holds: never wrapped to another process); 0 when 'target' is not all digits (a main class name). */
int jprof_args_pid(const char *target, int *pid, char *err, size_t errlen);

/* True when -L (--loglevel) asked for the agent's info or debug messages: jprof shows them then, and only
 * its warnings and errors otherwise, as asprof keeps quiet. */
bool jprof_args_shows_info(const jprof_args *a);

#endif
