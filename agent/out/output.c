#define _GNU_SOURCE
#include "output.h"

#include "filepath.h"
#include "out_collapsed.h"
#include "out_cpuprofile.h"
#include "out_gecko.h"
#include "out_html.h"
#include "out_otlp.h"
#include "out_pprof.h"
#include "out_speedscope.h"
#include "out_text.h"
#include "safe_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Per thread: only the API caller's own output is captured, never a timeout's or a loop's dump that runs
 * meanwhile on its own thread. */
static __thread FILE *capture;

void output_capture(FILE *f) {
    capture = f;
}

typedef int (*writer_fn)(FILE *out, const void *arg);

typedef struct {
    const prof_options *options;
    const profile *profile;
} profile_job;

static int write_profile_body(FILE *out, const void *arg) {
    const profile_job *job = arg;
    const prof_options *o = job->options;
    switch (options_effective_format(o)) {
    case FORMAT_COLLAPSED:
        return out_collapsed_write(job->profile, out);
    case FORMAT_PPROF:
        return out_pprof_write(job->profile, out);
    case FORMAT_SPEEDSCOPE:
        return out_speedscope_write(job->profile, out);
    case FORMAT_CPUPROFILE:
        return out_cpuprofile_write(job->profile, out);
    case FORMAT_GECKO:
        return out_gecko_write(job->profile, out);
    case FORMAT_OTLP:
        return out_otlp_write(job->profile, out);
    case FORMAT_FLAMEGRAPH:
    case FORMAT_TREE: {
        out_html_options html = {options_effective_format(o) == FORMAT_TREE, o->minwidth, o->reverse, o->inverted,
                                 o->highlight};
        return out_html_write(job->profile, out, &html);
    }
    default: {
        int traces = o->traces, flat = o->flat;
        if (!traces && !flat) traces = flat = OPTIONS_DEFAULT_TOP;
        return out_text_write(job->profile, out, traces, flat);
    }
    }
}

static int write_text_body(FILE *out, const void *arg) {
    fputs((const char *)arg, out);
    return ferror(out) ? -1 : 0;
}

/* Runs 'body' into the file the options name (see safe_file: a new file is written aside and moved into
 * place when complete; a device or FIFO is written in place). */
static int write_to_target(const prof_options *o, writer_fn body, const void *arg, char *err, size_t errlen) {
    if (!o->file[0]) {
        FILE *out = capture ? capture : stdout;
        int rc = body(out, arg);
        fflush(out);
        if (rc) snprintf(err, errlen, "cannot write to %s", capture ? "the caller's buffer" : "standard output");
        return rc;
    }
    char path[1024];
    if (filepath_expand(o->file, getpid(), time(NULL), path, sizeof(path), err, errlen)) return -1;
    safe_file f;
    if (safe_file_open(&f, path, "the profile", err, errlen)) return -1;
    /* A stream over the descriptor, whose writes wait only so long for a FIFO's reader (safe_file.h). */
    FILE *out = safe_file_stream(&f);
    if (!out) {
        int saved = errno;
        safe_file_abandon(&f);
        snprintf(err, errlen, "cannot write the profile to '%s': %s", path, strerror(saved));
        return -1;
    }
    errno = 0;
    int rc = body(out, arg);
    int saved = errno;
    if (fclose(out) != 0 && rc == 0) {
        rc = -1;
        saved = errno;
    }
    if (rc != 0) {
        safe_file_abandon(&f);
        if (saved == ETIMEDOUT)
            snprintf(err, errlen, "cannot write the profile to '%s': its reader took nothing for %d ms; the rest of "
                     "the profile was dropped", path, SAFE_FILE_STALL_MS);
        else snprintf(err, errlen, "cannot write the profile to '%s': %s", path, strerror(saved ? saved : EIO));
        return -1;
    }
    return safe_file_commit(&f, "the profile", err, errlen);
}

int output_write_profile(const prof_options *o, const profile *p, char *err, size_t errlen) {
    profile_job job = {o, p};
    return write_to_target(o, write_profile_body, &job, err, errlen);
}

int output_write_text(const prof_options *o, const char *text, char *err, size_t errlen) {
    return write_to_target(o, write_text_body, text, err, errlen);
}
