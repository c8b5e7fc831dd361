/*
 * render_profile: reads collapsed stacks and writes them in any format the agent writes, through the same
 * option grammar and output code. The browser tests use it to render one real profile as both collapsed
 * text and HTML (the agent writes one file per run), and the benchmarks to build huge synthetic profiles.
 *
 *   render_profile IN.collapsed 'file=out.html,tree,minwidth=0.5,title=...'
 *
 * Frame types are guessed from the name, as far as the collapsed text allows: "[... tid=N]" thread,
 * other "[...]" marker, "_[k]" kernel, names with '.' or '/' Java, anything else native.
 */
#define _GNU_SOURCE
#include "options.h"
#include "output.h"
#include "profile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static frame_type guess_type(const char *name) {
    size_t n = strlen(name);
    if (name[0] == '[' && name[n - 1] == ']') return strstr(name, "tid=") ? FTYPE_THREAD : FTYPE_MARKER;
    if (n > 4 && strcmp(name + n - 4, "_[k]") == 0) return FTYPE_KERNEL;
    if (strpbrk(name, "./") && !strstr(name, "::")) return FTYPE_JAVA;
    return FTYPE_NATIVE;
}

/* One line "a;b;c 123": the count after the last space. */
static int add_line(profile *p, char *line, uint32_t **ids, size_t *cap) {
    char *space = strrchr(line, ' ');
    if (!space) return -1;
    *space = 0;
    uint64_t value = strtoull(space + 1, NULL, 10);
    size_t depth = 0;
    char *save = NULL;
    for (char *f = strtok_r(line, ";", &save); f; f = strtok_r(NULL, ";", &save)) {
        if (depth == *cap) {
            *cap = *cap ? *cap * 2 : 256;
            *ids = realloc(*ids, *cap * sizeof(uint32_t));
            if (!*ids) return -1;
        }
        (*ids)[depth++] = profile_intern(p, f, guess_type(f));
    }
    return profile_add(p, *ids, (uint32_t)depth, value, value);
}

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
    char *line = NULL;
    size_t len = 0;
    uint32_t *ids = NULL;
    size_t cap = 0;
    ssize_t n;
    while ((n = getline(&line, &len, in)) > 0) {
        if (line[n - 1] == '\n') line[--n] = 0;
        if (n && add_line(&p, line, &ids, &cap)) {
            fprintf(stderr, "render_profile: bad line in %s\n", argv[1]);
            return 1;
        }
    }
    fclose(in);
    int rc = output_write_profile(&o, &p, err, sizeof(err));
    if (rc) fprintf(stderr, "render_profile: %s\n", err);
    free(line);
    free(ids);
    profile_free(&p);
    return rc ? 1 : 0;
}
