/*
 * identity: the switch is permanent (setres*id) rather than a temporary seteuid: jprof has nothing left to
 * do as root afterwards, and a half-switched process could create files the JVM's user cannot replace.
 */
#define _GNU_SOURCE
#include "identity.h"

#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int identity_become(uid_t uid, gid_t gid, char *err, size_t errlen) {
    if (geteuid() != 0 || (uid == 0 && gid == getegid())) return 0;
    /* Groups first and uid last: once the uid is not root, nothing else may change. */
    if (setgroups(0, NULL) || setresgid(gid, gid, gid) || setresuid(uid, uid, uid)) {
        snprintf(err, errlen, "cannot switch to the JVM's user (uid %u, gid %u): %s", (unsigned)uid, (unsigned)gid,
                 strerror(errno));
        return -1;
    }
    return 0;
}
