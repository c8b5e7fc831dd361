/*
 * jfrconv_args: jfrconv's command line, spelled as async-profiler's jfrconv spells it
 * (jfrconv [options] input.jfr [more.jfr...] output), parsed into the converter's options and the agent's
 * output options (format, title, minwidth, reverse...), so that the agent's writers do the writing.
 * Pure functions of their input: used by jfrconv.c and its tests.
 */
#ifndef JFRCONV_ARGS_H
#define JFRCONV_ARGS_H

#include "jfr_convert.h"
#include "options.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define JFRCONV_MAX_INPUTS 256

/* A --from / --to time before it can be resolved against the recording's span. */
typedef enum {
    TIME_NONE = 0,
    TIME_ABSOLUTE,      /* ns since the epoch */
    TIME_FROM_START,    /* ns after the recording's start */
    TIME_FROM_END,      /* ns before the recording's end (a negative value) */
    TIME_OF_DAY,        /* ns since local midnight of the recording's first day (hh:mm:ss) */
} jfrconv_time_kind;

typedef struct {
    jfrconv_time_kind kind;
    uint64_t ns;
} jfrconv_time;

typedef struct {
    jfr_convert_options convert;
    prof_options output;          /* every option of the table's the agent shares (title, minwidth, -r, -t ...),
                                     set by the agent's own parser; the converter's naming and threads
                                     come from it */
    const char *inputs[JFRCONV_MAX_INPUTS];
    int input_count;
    const char *output_path;      /* "-" = standard output */
    jfrconv_time from, to;
    bool diff;                    /* --diff BASE NEW OUTPUT */
    bool latency_diff;            /* --latency-diff TIME INPUT OUTPUT: fast calls against slow ones */
    bool reverse_after_shaping;   /* -r with --classify/--skip/--grain: stacks reversed once they are shaped */
    bool help;
    bool version;   /* -v / --version: print the version and the licence, convert nothing */
} jfrconv_args;

/* Parses argv (argv[0] is the program). -1 with one line in 'err' naming the bad argument. The caller
 * frees args->convert with jfr_convert_options_free. */
int jfrconv_args_parse(int argc, char **argv, jfrconv_args *args, char *err, size_t errlen);

/* Parses one --from/--to value: 10s, 500ms, 1500 (ms), -5s (before the end), 1700000000000 (epoch ms),
 * 2026-11-22T10:15:00[.123][Z], 10:15:00. */
int jfrconv_parse_time(const char *text, jfrconv_time *out);

/* The absolute time of 't' for a recording spanning [start_ns, end_ns]; 'fallback' for TIME_NONE. */
uint64_t jfrconv_resolve_time(const jfrconv_time *t, uint64_t start_ns, uint64_t end_ns, uint64_t fallback);

void jfrconv_usage(FILE *out);

#endif
