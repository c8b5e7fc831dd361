/*
 * identity: jprof run as root becomes the target JVM's user before attaching, because HotSpot answers only
 * peers with its own effective uid and gid, and the files jprof creates for the agent must be writable by
 * that user. Used by jprof only.
 */
#ifndef JPROF_IDENTITY_H
#define JPROF_IDENTITY_H

#include <stddef.h>
#include <sys/types.h>

/* Root: switches real, effective and saved ids (and drops supplementary groups) for good.
 * Anyone else: nothing to do (proc_target_open has already refused another user's process). */
int identity_become(uid_t uid, gid_t gid, char *err, size_t errlen);

#endif
