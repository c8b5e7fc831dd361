/*
 * session_dir: the private directory through which the agent hands results back to jprof. It is created
 * in the target's /tmp (so the JVM can reach it, even in a container), mode 0700, owned by the JVM's user,
 * and from then on jprof reaches it only through the descriptor it opened and checked at creation: a
 * process in the target that moves it away and plants a symlink in its place redirects nothing jprof
 * creates, reads or deletes. Every file in it is created with O_EXCL|O_NOFOLLOW and mode 0600, and read
 * only if it is a regular file. Used by jprof only.
 */
#ifndef JPROF_SESSION_DIR_H
#define JPROF_SESSION_DIR_H

#include "proc_target.h"

#include <stddef.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>

typedef struct {
    char inner[256];   /* the directory as the JVM names it */
    char outer[320];   /* the same directory as messages name it */
    char name[64];     /* its entry in the target's /tmp */
    int tmp_fd;        /* the target's /tmp (our own duplicate) */
    int fd;            /* the directory itself */
    struct stat st;    /* what it was when created, to recognise it at removal */
} session_dir;

int session_dir_create(const proc_target *t, session_dir *d, char *err, size_t errlen);

/* Creates the empty file 'name' in the directory; writes the JVM's path of it into 'inner'. */
int session_dir_new_file(const session_dir *d, const char *name, char *inner, size_t innerlen, char *err,
                         size_t errlen);

/* Copies the content of 'name' from byte '*offset' on to 'to' and advances '*offset'. Returns the number of
 * bytes copied, or -1 when the file cannot be read (or is not a regular file). */
long session_dir_copy(const session_dir *d, const char *name, off_t *offset, FILE *to);

/* Removes everything in the directory (the agent may have left temporary files), then the directory,
 * provided its name in /tmp still leads to it. -1 with a message when the name was moved or replaced
 * meanwhile: then only the directory's content is gone, and whatever now has its name is left alone. */
int session_dir_remove(session_dir *d, char *err, size_t errlen);

#endif
