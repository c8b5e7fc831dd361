/*
 * render_profile: reads collapsed stacks and writes them in any format the agent writes, through the same
 * option grammar and output code. The browser tests use it to render one real profile as both collapsed
 * text and HTML (the agent writes one file per run), and the benchmarks to build huge synthetic profiles.
 *
 *   render_profile IN.collapsed 'file=out.html,tree,minwidth=0.5,title=...'
 *
 * Frame types are guessed from the names (collapsed_read.h).
 */
#define _GNU_SOURCE
#include "collapsed_read.h"
#include "options.h"
#include "output.h"
#include "profile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: render_profile IN.collapsed OPTIONS\n");
        return 2;
    }
    prof_options o;
    char err[OPTIONS_ERROR_MAX];
    if (options_parse(argv[2], &o, err, sizeof(err))) {
        fprintf(stderr, "render_profile: %s\n", err);
        return 2;
    }
    FILE *in = fopen(argv[1], "r");
    if (!in) {
        perror(argv[1]);
        return 1;
    }
    profile p;
    profile_init(&p);
    snprintf(p.meta.title, sizeof(p.meta.title), "%s", o.title);
    p.meta.total = o.total;   /* the count is the weight too, in the profile's default unit (ns) */
    p.meta.interval_ns = o.interval_ns;   /* the timeline formats space their synthesised samples by it */
    strcpy(p.meta.engine, "collapsed");
    strcpy(p.meta.event, "cpu");
    if (collapsed_read(in, argv[1], &p, err, sizeof(err))) {
        fprintf(stderr, "render_profile: %s\n", err);
        return 1;
    }
    fclose(in);
    int rc = output_write_profile(&o, &p, err, sizeof(err));
    if (rc) fprintf(stderr, "render_profile: %s\n", err);
    profile_free(&p);
    return rc ? 1 : 0;
}
