/*
 * html_asprof_frames: the flame graph's frames once more, in the layout of async-profiler's HTML page, inside
 * an inert script element of ours, so that its converter and its test suite read our pages (async-profiler's
 * FlameGraph.parseHtml turns a page back into stacks). The layout, as that reader takes it: a line starting
 * "const cpool", a line for the root's name ('all'), then one quoted line per frame name, each spelled as the
 * length of the prefix it shares with the name before (a character from ' ', 95 at most) and the rest, with
 * \ and ' escaped; a line that does not start with a quote, and an empty line; then one line per frame in
 * preorder, "f(name << 3 | type,level,left,total)", up to an empty line. Types are async-profiler's frame
 * types (0 interpreted, 1 JIT, 2 inlined, 3 native, 4 C++, 5 kernel, 6 C1). Called by out_html only.
 */
#ifndef LIBPROF_HTML_ASPROF_FRAMES_H
#define LIBPROF_HTML_ASPROF_FRAMES_H

#include "calltree.h"
#include "profile.h"

#include <stdint.h>
#include <stdio.h>

/* Writes the element for tree 't' of 'p', leaving out nodes whose total is below min_total (as the page does).
 * Returns 0, or -1 when out of memory. */
int html_asprof_frames_write(const calltree *t, const profile *p, uint64_t min_total, FILE *out);

#endif
