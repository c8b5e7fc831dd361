/*
 * nmethod_scopes_init: the set-up half of signal/nmethod_scopes.h: reading the layout of nmethods' debug
 * information (pcs, scopes data, metadata) from the VM's structure tables into nmethod_scopes_vm
 * (nmethod_scopes_init.c). Outside signal handlers.
 */
#ifndef LIBPROF_NMETHOD_SCOPES_INIT_H
#define LIBPROF_NMETHOD_SCOPES_INIT_H

#include "nmethod_scopes.h"

#include <stddef.h>

/* Reads the layout from the VM's structure tables. Returns -1 with the first entry missing; the walker
 * then cannot name compiled frames itself. (nmethod_scopes_init.c) */
int nmethod_scopes_init(char *err, size_t errlen);

#endif
