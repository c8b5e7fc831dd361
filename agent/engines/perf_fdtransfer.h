/*
 * perf_fdtransfer: the agent's side of fdtransfer (perf_transfer.h): perf events opened by jprof's privileged
 * helper instead of by the JVM. One connection per session, made when the perf engine first needs an event,
 * closed at its stop (the helper then exits). Every call is serialised; a request waits at most two seconds
 * for the helper. Used by engine_perf only, outside signal handlers.
 */
#ifndef LIBPROF_PERF_FDTRANSFER_H
#define LIBPROF_PERF_FDTRANSFER_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>

/* Connects to the helper listening on 'name' (fdtransfer=NAME), unless connected already. 0, or -1 with
 * the reason. */
int perf_fdtransfer_connect(const char *name, char *err, size_t errlen);

bool perf_fdtransfer_connected(void);

/* An event opened by the helper for thread 'tid' on 'cpu' (-1: any): its descriptor, or -1 with errno set
 * (perf_event_open's own errno from the helper, or ECONNRESET once the helper is gone: the connection is
 * then closed, and perf_fdtransfer_connected() false). */
int perf_fdtransfer_open(const struct perf_event_attr *attr, int tid, int cpu);

/* Ends the connection; the helper exits. */
void perf_fdtransfer_close(void);

#endif
