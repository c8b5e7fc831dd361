/*
 * pb_strings: the string table of the protobuf formats (pprof's string_table, OpenTelemetry's
 * dictionary.string_table): strings referred to by index, kept as pointers to the caller's strings, which
 * must outlive the table. Entry 0 is "" in both formats; the writers add it first.
 */
#ifndef LIBPROF_PB_STRINGS_H
#define LIBPROF_PB_STRINGS_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    char **strings;
    size_t count, capacity;
} pb_strings;

/* The index of 's', appended (not looked up: callers add each string once). -1 when out of memory. */
int64_t pb_strings_add(pb_strings *t, const char *s);

void pb_strings_free(pb_strings *t);

#endif
