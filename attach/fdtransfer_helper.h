/*
 * fdtransfer_helper: jprof's side of fdtransfer (perf_transfer.h). Started before jprof becomes the JVM's
 * user, the helper keeps jprof's privileges and opens perf events for the JVM it was started for, which may
 * not open them itself (kernel.perf_event_paranoid, no CAP_PERFMON). Used by jprof.
 */
#ifndef JPROF_FDTRANSFER_HELPER_H
#define JPROF_FDTRANSFER_HELPER_H

#include <stddef.h>
#include <sys/types.h>

/* Starts the helper for JVM 'target': a child process in its own session, its standard streams on /dev/null,
 * listening on a new abstract unix socket whose name (for fdtransfer=) goes to 'name'. It serves the first
 * connection from that JVM until the JVM closes it (the perf engine's stop) or exits, and gives up after a
 * minute without one. The child's pid, or -1 with the reason. */
pid_t fdtransfer_helper_start(pid_t target, char *name, size_t namelen, char *err, size_t errlen);

/* Reaps the helper if it exits within 'wait_ms' (0: only if it has already); else leaves it serving. */
void fdtransfer_helper_reap(pid_t helper, int wait_ms);

#endif
