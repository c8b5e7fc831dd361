/*
 * walk_vm_check: the start-up check of walk_vm.h's assumptions on this JVM (walk_vm_check.c). Outside
 * signal handlers.
 */
#ifndef LIBPROF_WALK_VM_CHECK_H
#define LIBPROF_WALK_VM_CHECK_H

#include "walk_vm.h"

#include <stddef.h>

/* Checks at start-up, outside signal handlers, that this JVM describes everything walk_vm reads
 * (codeblob_init) and that a jmethodID leads to its Method* as walk_vm assumes, on a known method. Returns
 * -1 with the first thing missing or wrong. (walk_vm_check.c) */
int walk_vm_check(char *err, size_t errlen);

#endif
