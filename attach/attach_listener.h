/*
 * attach_listener: a connection to a HotSpot JVM's attach listener, the UNIX socket /tmp/.java_pid<pid> in
 * the target's file system. HotSpot starts the listener lazily: when the socket is missing, jprof creates
 * the trigger file .attach_pid<pid> (in the JVM's working directory, else /tmp), sends SIGQUIT and waits,
 * with a bounded timeout, for the socket to appear. Used by hotspot_attach only.
 */
#ifndef JPROF_ATTACH_LISTENER_H
#define JPROF_ATTACH_LISTENER_H

#include "proc_target.h"

#include <stddef.h>

/* Returns a connected socket (close it when done), or -1 with a message for the user. */
int attach_listener_connect(const proc_target *t, int timeout_ms, char *err, size_t errlen);

#endif
