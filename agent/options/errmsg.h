/*
 * errmsg: the error convention of the parsers (options, jfrconv's arguments): a function that refuses
 * input writes why into the caller's buffer and returns -1.
 */
#ifndef LIBPROF_ERRMSG_H
#define LIBPROF_ERRMSG_H

#include <stddef.h>

/* Formats the message into err (at most errlen bytes) and returns -1. */
int errmsg_fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
