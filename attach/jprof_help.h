/*
 * jprof_help: the text of jprof --help and jprof list. Options the linked option grammar (options.c)
 * does not accept yet are marked as such, computed at run time, so the help never claims more than the
 * agent built with it can do. Used by jprof only.
 */
#ifndef JPROF_HELP_H
#define JPROF_HELP_H

#include <stdio.h>

void jprof_help_print(FILE *out);

/* The events 'list' shows: those the option grammar accepts. */
void jprof_help_print_events(FILE *out);

#endif
