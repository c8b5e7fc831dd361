/*
 * json_out: the JSON text the JSON writers share (the HTML page's data, speedscope, Chrome .cpuprofile,
 * Firefox Gecko profiles). Strings are escaped so that no frame name can end a string or, in the HTML
 * page, the script: '"' '\' and control characters, and '<' '>' '&'.
 */
#ifndef LIBPROF_JSON_OUT_H
#define LIBPROF_JSON_OUT_H

#include <stdio.h>

void json_out_string(FILE *out, const char *s);

#endif
