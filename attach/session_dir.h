/*
 * session_dir: the private directory through which the agent hands results back to jprof. It is created
 * in the target's /tmp (so the JVM can reach it, even in a container) with mkdtemp, mode 0700, owned by
 * the JVM's user; every file in it is created with O_EXCL|O_NOFOLLOW and mode 0600, so a symlink planted
 * by someone else is never followed. Used by jprof only.
 */
#ifndef JPROF_SESSION_DIR_H
#define JPROF_SESSION_DIR_H

#include "proc_target.h"

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

typedef struct {
    char inner[256];   /* the directory as the JVM names it */
    char outer[320];   /* the same directory as jprof reaches it */
} session_dir;

int session_dir_create(const proc_target *t, session_dir *d, char *err, size_t errlen);

/* Creates the empty file 'name' in the directory; writes the JVM's path of it into 'inner'. */
int session_dir_new_file(const session_dir *d, const char *name, char *inner, size_t innerlen, char *err,
                         size_t errlen);

/* Copies the content of 'name' from byte '*offset' on to 'to' and advances '*offset'. Returns the number of
 * bytes copied, or -1 when the file cannot be read. */
long session_dir_copy(const session_dir *d, const char *name, off_t *offset, FILE *to);

/* Removes the directory and everything in it (the agent may have left temporary files). */
void session_dir_remove(const session_dir *d);

#endif
