/*
 * output: where a profile or a message goes. file= is expanded (%p, %t) and written through safe_file:
 * a new or regular file gets a private temporary file beside it, renamed over it only when complete, so
 * a failed write never leaves a half-written profile under the requested name; a device or FIFO is
 * written in place. No file: standard output.
 */
#ifndef LIBPROF_OUTPUT_H
#define LIBPROF_OUTPUT_H

#include "options.h"
#include "profile.h"

#include <stddef.h>
#include <stdio.h>

/* Writes the profile in the format the options ask for. -1 with a message naming the file. */
int output_write_profile(const prof_options *o, const profile *p, char *err, size_t errlen);

/* Writes plain text (status, version) to file= or standard output. */
int output_write_text(const prof_options *o, const char *text, char *err, size_t errlen);

/* While 'f' is set (not NULL), output without file= written by the calling thread goes into 'f' instead of
 * standard output: the Java and C APIs return a command's output to their caller (api_command.c). */
void output_capture(FILE *f);

#endif
