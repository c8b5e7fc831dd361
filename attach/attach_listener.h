/*
 * attach_listener: a connection to a HotSpot JVM's attach listener, the UNIX socket /tmp/.java_pid<pid> in
 * the target's file system. HotSpot starts the listener lazily: when the socket is missing, jprof creates
 * the trigger file .attach_pid<pid> (in the JVM's working directory, else /tmp), sends SIGQUIT and waits,
 * with a bounded timeout, for the socket to appear. Both names are looked up in directories jprof holds
 * open (proc_target), never through a link. Used by hotspot_attach only.
 */
#ifndef JPROF_ATTACH_LISTENER_H
#define JPROF_ATTACH_LISTENER_H

#include "proc_target.h"

#include <signal.h>
#include <stddef.h>

/* Returns a connected socket (close it when done), or -1 with a message for the user. The wait for the
 * listener ends early when '*cancel' (may be NULL) becomes non-zero, e.g. from a signal handler. */
int attach_listener_connect(const proc_target *t, int timeout_ms, volatile sig_atomic_t *cancel, char *err,
                            size_t errlen);

#endif
