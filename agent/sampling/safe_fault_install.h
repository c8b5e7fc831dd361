/*
 * safe_fault_install: installs and checks the fault handler of safe_fault.h. Outside signal handlers.
 */
#ifndef LIBPROF_SAFE_FAULT_INSTALL_H
#define LIBPROF_SAFE_FAULT_INSTALL_H

#include <stdbool.h>
#include <stddef.h>

/* Installs the SIGSEGV and SIGBUS handlers in front of the current ones (where ours is not installed
 * already), then proves them with a load from an inaccessible page. Outside signal handlers. 0, or -1
 * with the reason in err. */
int safe_fault_install(char *err, size_t errlen);

/* True while the handlers installed by safe_fault_install are still the ones the process uses (another
 * party may have replaced them since). Outside signal handlers. */
bool safe_fault_intact(void);

#endif
