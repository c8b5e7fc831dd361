/*
 * leak_table_create: the set-up half of signal/leak_table.h: reserving, clearing and (tests only)
 * releasing the table of live sampled allocations. Outside hooks; clearing only while no hook can add.
 */
#ifndef LIBPROF_LEAK_TABLE_CREATE_H
#define LIBPROF_LEAK_TABLE_CREATE_H

#include "leak_table.h"

#include <stddef.h>

/* 'entries' rounded up to a power of two, reserved lazily. */
leak_table *leak_table_create(size_t entries);
void leak_table_clear(leak_table *t);
/* Only where no hook can use it any more (tests): the agent keeps its table for the process's life. */
void leak_table_destroy(leak_table *t);

#endif
