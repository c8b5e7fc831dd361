/*
 * jfrconv: converts JFR recordings (ours and the JDK's) into the agent's output formats. Each input is
 * mapped read-only and read chunk by chunk (jfr_convert); the merged profile is written by the agent's own
 * writers (output.c). Errors name the file, the chunk and the offset; the exit status is 0 on success,
 * 1 when an input cannot be read or the output cannot be written, 2 for a bad command line.
 */
#define _GNU_SOURCE
#include "jfrconv_args.h"

#include "collapsed_read.h"
#include "completeness.h"
#include "jfr_convert.h"
#include "out_diff.h"
#include "output.h"
#include "profile.h"
#include "profile_diff.h"
#include "viewer_formats.h"
#include "profile_reshape.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct {
    const char *path;
    const uint8_t *data;
    size_t size;
} mapped_file;

static const char *describe_type(mode_t mode) {
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    if (S_ISDIR(mode)) return "a directory";
    return "not a regular file";
}

static int map_input(const char *path, mapped_file *f) {
    f->path = path;
    f->data = NULL;
    f->size = 0;
    /* O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer, forever. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        fprintf(stderr, "jfrconv: error: cannot open '%s': %s\n", path, strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) st.st_mode = 0;   /* cannot happen on an open descriptor: "not a regular file" */
    if (!S_ISREG(st.st_mode)) {
        fprintf(stderr, "jfrconv: error: '%s' is %s; jfrconv reads recordings from regular files only (save a "
                "stream to a file first)\n", path, describe_type(st.st_mode));
        close(fd);
        return -1;
    }
    f->size = (size_t)st.st_size;
    if (f->size > 0) {
        void *p = mmap(NULL, f->size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED) {
            fprintf(stderr, "jfrconv: error: cannot read '%s': %s\n", path, strerror(errno));
            close(fd);
            return -1;
        }
        f->data = p;
    }
    close(fd);
    return 0;
}

static void unmap_input(mapped_file *f) {
    if (f->data) munmap((void *)f->data, f->size);
    f->data = NULL;
}

/* Collapsed stacks rather than a recording: not named .jfr, not starting with the chunk magic, and text
 * (no control bytes but tab, newline, carriage return in its first 4 KiB). Anything else goes to the JFR
 * reader, whose error says what it expected. */
static bool is_collapsed(const mapped_file *f) {
    size_t n = strlen(f->path);
    if (!f->size || (n > 4 && strcmp(f->path + n - 4, ".jfr") == 0)) return false;
    if (f->size >= 4 && memcmp(f->data, "FLR", 4) == 0) return false;
    for (size_t i = 0; i < f->size && i < 4096; i++) {
        if (f->data[i] < 0x20 && f->data[i] != '\t' && f->data[i] != '\n' && f->data[i] != '\r') return false;
    }
    return true;
}

/* Collapsed stacks into p (jfrconv's filters and time range do not apply to them). */
static int read_collapsed_input(const mapped_file *f, profile *p) {
    FILE *in = f->size ? fmemopen((void *)f->data, f->size, "r") : NULL;
    char err[512];
    int rc = f->size && !in ? -1 : 0;
    if (in && collapsed_read(in, f->path, p, err, sizeof(err))) {
        fprintf(stderr, "jfrconv: error: %s (an input is a JFR recording or collapsed stacks)\n", err);
        rc = -1;
    }
    if (in) fclose(in);
    return rc;
}

/* The span of all inputs, for times relative to the recording's start or end. */
static int recording_span(const jfrconv_args *a, mapped_file *files, uint64_t *start, uint64_t *end) {
    *start = UINT64_MAX;
    *end = 0;
    for (int i = 0; i < a->input_count; i++) {
        uint64_t s, e;
        jfr_error err = {0};
        if (files[i].size == 0 || is_collapsed(&files[i])) continue;  /* reported by the conversion; collapsed text */
        if (jfr_convert_span(files[i].data, files[i].size, &s, &e, &err)) {
            fprintf(stderr, "jfrconv: error: %s: not a readable JFR recording: %s\n", files[i].path, err.message);
            return -1;
        }
        if (s < *start) *start = s;
        if (e > *end) *end = e;
    }
    if (*start == UINT64_MAX) *start = 0;
    return 0;
}

static void describe(profile *p, const jfrconv_args *a, const jfr_convert_stats *st, uint64_t start, uint64_t end) {
    snprintf(p->meta.engine, sizeof(p->meta.engine), "jfr");
    snprintf(p->meta.event, sizeof(p->meta.event), "%s", jfr_convert_event_names(&a->convert));
    snprintf(p->meta.counts, sizeof(p->meta.counts), "%s", jfr_convert_counts(&a->convert));
    snprintf(p->meta.title, sizeof(p->meta.title), "%s", a->output.title);
    snprintf(p->meta.cstack, sizeof(p->meta.cstack), "jfr");
    p->meta.total = a->output.total;
    /* What the weights count: bytes (allocations), ns waited (locks), or samples for unweighted events. */
    if (strcmp(jfr_convert_units(&a->convert), "samples") != 0)
        snprintf(p->meta.units, sizeof(p->meta.units), "%s", jfr_convert_units(&a->convert));
    else if (!st->weighted) snprintf(p->meta.units, sizeof(p->meta.units), "samples");
    p->meta.duration_ns = end > start ? end - start : 0;
    p->meta.start_unix_ns = start;
    snprintf(p->meta.sample_kind, sizeof(p->meta.sample_kind), "%s", jfr_convert_sample_kind(&a->convert));
}

/* --classify, --skip, --grain: 'p' replaced by its reshaped copy. */
static int reshape(const jfrconv_args *a, profile *p) {
    profile_reshape_options o = {a->output.grain, a->output.classify, a->output.skip, a->reverse_after_shaping};
    profile shaped;
    if (!profile_reshape_wanted(&o)) return 0;
    if (profile_reshape(p, &o, &shaped)) {
        fprintf(stderr, "jfrconv: error: out of memory shaping the profile\n");
        return -1;
    }
    profile_free(p);
    *p = shaped;
    return 0;
}

/* One input of --diff: a JFR recording (by its magic "FLR\0"), else collapsed stacks. */
static int load_for_diff(const char *path, jfrconv_args *a, profile *p) {
    mapped_file f;
    if (map_input(path, &f)) return -1;
    int rc = 0;
    if (!is_collapsed(&f)) {
        uint64_t start = 0, end = 0;
        jfr_convert_stats st = {0};
        jfr_error jerr = {0};
        a->input_count = 1;
        a->inputs[0] = path;
        rc = recording_span(a, &f, &start, &end);
        a->convert.from_ns = jfrconv_resolve_time(&a->from, start, end, 0);
        a->convert.to_ns = jfrconv_resolve_time(&a->to, start, end, UINT64_MAX);
        if (rc == 0 && jfr_convert(&a->convert, f.data, f.size, p, &st, &jerr)) {
            fprintf(stderr, "jfrconv: error: %s: not a readable JFR recording: %s\n", path, jerr.message);
            rc = -1;
        }
        if (rc == 0)
            describe(p, a, &st, a->convert.from_ns > start ? a->convert.from_ns : start,
                     a->convert.to_ns < end ? a->convert.to_ns : end);
    } else {
        rc = read_collapsed_input(&f, p);
        p->meta.total = a->output.total;   /* collapsed text has no duration: compared as shares */
    }
    unmap_input(&f);
    if (rc == 0) rc = reshape(a, p);
    return rc;
}

static int write_diff(const jfrconv_args *a, const char *base_path, const char *next_path, profile *base,
                      profile *next) {
    profile_diff d;
    if (profile_diff_build(base, next, &d)) {
        fprintf(stderr, "jfrconv: error: out of memory comparing the profiles\n");
        return -1;
    }
    char base_summary[1024], next_summary[1024];
    completeness_summary(base, base_summary, sizeof(base_summary));
    completeness_summary(next, next_summary, sizeof(next_summary));
    out_diff_labels labels = {base_path, next_path, base_summary, next_summary, a->output.title};
    bool to_stdout = strcmp(a->output_path, "-") == 0;
    size_t n = strlen(a->output_path);
    bool html = n > 5 && strcmp(a->output_path + n - 5, ".html") == 0;
    FILE *out = to_stdout ? stdout : fopen(a->output_path, "w");
    int rc = -1;
    if (!out) {
        fprintf(stderr, "jfrconv: error: cannot write '%s': %s\n", a->output_path, strerror(errno));
    } else {
        rc = html ? out_diff_write_html(&d, &labels, out) : out_diff_write_text(&d, &labels, out);
        if ((to_stdout ? fflush(out) : fclose(out)) != 0) rc = -1;
        if (rc) fprintf(stderr, "jfrconv: error: cannot write '%s'\n", a->output_path);
    }
    profile_diff_free(&d);
    return rc;
}

static int run_diff(jfrconv_args *a) {
    const char *base_path = a->inputs[0], *next_path = a->inputs[1];
    profile base, next;
    profile_init(&base);
    profile_init(&next);
    int rc = load_for_diff(base_path, a, &base);
    if (rc == 0) rc = load_for_diff(next_path, a, &next);
    if (rc == 0) rc = write_diff(a, base_path, next_path, &base, &next);
    profile_free(&base);
    profile_free(&next);
    jfr_convert_options_free(&a->convert);
    return rc ? 1 : 0;
}

/* --latency-diff TIME: one recording as two profiles, the samples inside its calls shorter than TIME (base)
 * and those inside calls of TIME or more (new), compared as shares: slow calls are fewer, what matters is
 * where their time goes differently. */
static int run_latency_diff(jfrconv_args *a) {
    const char *path = a->inputs[0];
    jfrconv_args fast = *a, slow = *a;
    fast.convert.latency_below_ns = a->convert.latency_ns;
    fast.convert.latency_ns = 0;
    profile base, next;
    profile_init(&base);
    profile_init(&next);
    int rc = load_for_diff(path, &fast, &base);
    if (rc == 0) rc = load_for_diff(path, &slow, &next);
    base.meta.duration_ns = next.meta.duration_ns = 0;   /* shares, not per second */
    char base_label[64], next_label[64], time[32];
    snprintf(time, sizeof(time), "%.3f ms", (double)a->convert.latency_ns / 1e6);
    snprintf(base_label, sizeof(base_label), "calls under %s", time);
    snprintf(next_label, sizeof(next_label), "calls of %s or more", time);
    if (rc == 0) rc = write_diff(a, base_label, next_label, &base, &next);
    profile_free(&base);
    profile_free(&next);
    jfr_convert_options_free(&a->convert);
    return rc ? 1 : 0;
}

int main(int argc, char **argv) {
    jfrconv_args a;
    char err[OPTIONS_ERROR_MAX];
    if (jfrconv_args_parse(argc, argv, &a, err, sizeof(err))) {
        fprintf(stderr, "jfrconv: error: %s\n", err);
        jfr_convert_options_free(&a.convert);
        return 2;
    }
    if (a.version) {
        printf("jfrconv (libprof) %s\nLicensed under the %s licence (the LICENSE file that comes with it).\n",
               LIBPROF_VERSION, LIBPROF_LICENSE);
        jfr_convert_options_free(&a.convert);
        return 0;
    }
    if (a.help) {
        jfrconv_usage(stdout);
        jfr_convert_options_free(&a.convert);
        return 0;
    }
    if (a.diff) return run_diff(&a);
    if (a.latency_diff) return run_latency_diff(&a);
    a.convert.source_lines = viewer_format_shows_source(options_effective_format(&a.output));
    /* pprof labels the samples taken in the application's spans: it needs their times too. */
    a.convert.sample_times = viewer_format_has_timeline(options_effective_format(&a.output)) ||
                             options_effective_format(&a.output) == FORMAT_PPROF;
    static mapped_file files[JFRCONV_MAX_INPUTS];
    int rc = 0, mapped = 0;
    for (; mapped < a.input_count && rc == 0; mapped++) rc = map_input(a.inputs[mapped], &files[mapped]);
    uint64_t start = 0, end = 0;
    if (rc == 0) rc = recording_span(&a, files, &start, &end);
    a.convert.from_ns = jfrconv_resolve_time(&a.from, start, end, 0);
    a.convert.to_ns = jfrconv_resolve_time(&a.to, start, end, UINT64_MAX);

    profile p;
    profile_init(&p);
    jfr_convert_stats st = {0};
    int collapsed_inputs = 0;
    for (int i = 0; i < a.input_count && rc == 0; i++) {
        jfr_error jerr = {0};
        if (is_collapsed(&files[i])) {
            rc = read_collapsed_input(&files[i], &p);
            collapsed_inputs++;
        } else if (jfr_convert(&a.convert, files[i].data, files[i].size, &p, &st, &jerr)) {
            fprintf(stderr, "jfrconv: error: %s: not a readable JFR recording: %s\n", files[i].path, jerr.message);
            rc = -1;
        } else if (st.unfinished_bytes) {
            fprintf(stderr, "jfrconv: warning: %s: skipped its last %llu bytes (from offset %llu): an unfinished "
                    "chunk (the file was cut, or its recording is still being written); the finished chunks "
                    "before it were converted\n", files[i].path, (unsigned long long)st.unfinished_bytes,
                    (unsigned long long)st.unfinished_at);
        }
    }
    for (int i = 0; i < mapped; i++) unmap_input(&files[i]);
    if (collapsed_inputs) profile_drop_ticks(&p);   /* text has no times: the timeline is synthesised for all */
    if (rc == 0) {
        fprintf(stderr, "jfrconv: %d file%s, %llu chunk%s, %llu samples, %llu kept", a.input_count,
                a.input_count == 1 ? "" : "s", (unsigned long long)st.chunks, st.chunks == 1 ? "" : "s",
                (unsigned long long)st.samples, (unsigned long long)st.kept);
        if (st.out_of_range) fprintf(stderr, ", %llu outside --from/--to", (unsigned long long)st.out_of_range);
        if (st.other_event)
            fprintf(stderr, ", %llu of the other event (not %s)", (unsigned long long)st.other_event,
                    a.convert.cpu_only ? "--cpu" : "--wall");
        if (st.other_state) fprintf(stderr, ", %llu in other states", (unsigned long long)st.other_state);
        if (st.filtered) fprintf(stderr, ", %llu filtered out", (unsigned long long)st.filtered);
        if (a.convert.latency)
            fprintf(stderr, ", %llu outside the %llu slow calls (--latency)", (unsigned long long)st.outside_slow,
                    (unsigned long long)st.slow_calls);
        fputc('\n', stderr);
        if (!a.convert.cpu_only && !a.convert.wall_only && st.cpu_seen && st.wall_seen)
            fprintf(stderr, "jfrconv: warning: the input holds CPU samples (%llu) and wall-clock samples (%llu), "
                    "converted together here; --cpu or --wall converts one of them\n",
                    (unsigned long long)st.cpu_seen, (unsigned long long)st.wall_seen);
        if (st.samples == 0 && collapsed_inputs < a.input_count) {
            fprintf(stderr, "jfrconv: warning: no %s events in the input", jfr_convert_event_names(&a.convert));
            const char *sep = "; it holds ";
            for (int set = 0; set <= JFR_EVENTS_TRACE; set++) {
                if (!st.unread[set]) continue;
                const char *flag = jfr_convert_set_flag((jfr_event_set)set);
                fprintf(stderr, "%s%llu events that %s converts", sep, (unsigned long long)st.unread[set],
                        flag[0] ? flag : "the default (CPU and wall samples)");
                sep = ", ";
            }
            fputc('\n', stderr);
        }
        describe(&p, &a, &st, a.convert.from_ns > start ? a.convert.from_ns : start,
                 a.convert.to_ns < end ? a.convert.to_ns : end);
        if (collapsed_inputs == a.input_count) {   /* no recording: say where the stacks came from */
            snprintf(p.meta.engine, sizeof(p.meta.engine), "collapsed");
            snprintf(p.meta.event, sizeof(p.meta.event), "collapsed stacks");
        }
        if (reshape(&a, &p)) rc = -1;
        else if (output_write_profile(&a.output, &p, err, sizeof(err))) {
            fprintf(stderr, "jfrconv: error: %s\n", err);
            rc = -1;
        }
    }
    profile_free(&p);
    jfr_convert_options_free(&a.convert);
    return rc ? 1 : 0;
}
