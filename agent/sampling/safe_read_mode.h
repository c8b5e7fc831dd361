/*
 * safe_read_mode: chooses how safe_read reads memory it cannot prove mapped (fault-tolerant loads, the
 * process_vm_readv system call, or proven memory only) and logs the choice. Outside signal handlers.
 */
#ifndef LIBPROF_SAFE_READ_MODE_H
#define LIBPROF_SAFE_READ_MODE_H

#include <stdbool.h>

/* Chooses once, the first time it is called after the JVM installed its own signal handlers (VMInit or
 * attach); later calls do nothing. */
void safe_read_mode_choose(void);

/* When the fault handler was replaced since it was chosen, moves to the next mechanism and warns once.
 * Called periodically while profiling. */
void safe_read_mode_check(void);

/* The mechanism in use, for logs and headers: "fault", "process_vm_readv" or "bounded". */
const char *safe_read_mode_name(void);

/* The seccomp mode of the calling thread (0 none, 1 strict, 2 filter) from /proc/thread-self/status;
 * -1 when unknown. */
int safe_read_mode_seccomp(void);

#endif
