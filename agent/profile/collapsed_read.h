/*
 * collapsed_read: collapsed stacks ("a;b;c 123" per line) read back into a profile, for jfrconv's
 * collapsed inputs (--diff) and render_profile. Frame types are guessed from the names, as far as the
 * text allows: "[... tid=N]" thread, other "[...]" marker, "_[k]" kernel, names with '.' or '/' Java
 * (not C++ "::"), anything else native. The count is both the sample count and the weight.
 */
#ifndef LIBPROF_COLLAPSED_READ_H
#define LIBPROF_COLLAPSED_READ_H

#include "profile.h"

#include <stdio.h>

/* Adds every line of 'in' to 'p'. -1 with 'err' naming the line when one has no count or memory ran out. */
int collapsed_read(FILE *in, const char *name, profile *p, char *err, size_t errlen);

frame_type collapsed_guess_type(const char *frame);

#endif
