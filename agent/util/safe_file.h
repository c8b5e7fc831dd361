/*
 * safe_file: how every output file is created and put in place (profiles, JFR recordings and their
 * copies, jfrconv's outputs). A profiler often runs as root beside other users' files, so nothing it
 * writes may replace, follow, expose or hang on what is not its own:
 * - an existing regular file of another user is refused (never replaced, never written);
 * - an output that does not exist or is a regular file of ours is written to a new temporary file beside it,
 *   created exclusively (O_CREAT|O_EXCL|O_NOFOLLOW: never opened if it exists) under an unpredictable
 *   name, mode 0600 until complete; then it gets its final mode (0644 minus the umask) and is renamed
 *   over the target;
 * - an existing output that is not a regular file (a device such as /dev/null, a FIFO) is written in
 *   place and never replaced; a FIFO or socket of another user (but root) is refused like a regular file,
 *   since its owner would read the profile or could hold the JVM's exit; it is opened and written without
 *   blocking, so a FIFO with no reader is an error, not a hang, and a reader that takes nothing for
 *   SAFE_FILE_STALL_MS loses the rest of the output (said in the message), never holds the writer;
 * - a symbolic link is followed only when every link of the chain belongs to us or to root (/dev/stdout,
 *   a link of our own), and what it leads to is written in place, so the link stays a link; a chain
 *   through another user's link is refused;
 * - a failed move keeps the temporary file and the message says where it is.
 * Not for signal handlers (stdio, allocation-free but blocking system calls).
 */
#ifndef LIBPROF_SAFE_FILE_H
#define LIBPROF_SAFE_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define SAFE_FILE_PATH_MAX 1024
#define SAFE_FILE_TEMP_MAX (SAFE_FILE_PATH_MAX + 32)

typedef enum {
    SAFE_FILE_NEW,       /* absent or a regular file: a temporary file renamed over it */
    SAFE_FILE_DEVICE,    /* an existing device, FIFO or socket: written in place */
    SAFE_FILE_LINK,      /* a symbolic link of ours or root's: what it leads to is written in place */
    SAFE_FILE_REFUSED,   /* a directory, another user's file or link, a dangling link: err says which */
} safe_file_kind;

/* An output being written. */
typedef struct {
    int fd;                          /* -1 when closed */
    bool in_place;                   /* fd is the output itself, not a temporary file */
    char path[SAFE_FILE_PATH_MAX];   /* the output as named */
    char temp[SAFE_FILE_TEMP_MAX];   /* the temporary file ("" when in place) */
} safe_file;

/* How 'path' would be written; when refused, err says why ("'<path>' is a directory..."). */
safe_file_kind safe_file_classify(const char *path, char *err, size_t errlen);

/* Creates "<base>.tmp-<pid>-<random><suffix>" exclusively, mode 0600, open for reading and writing; its
 * name in temp. Returns the descriptor, or -1 with the reason in err ("'<base>': <why>"). */
int safe_file_create_temp(const char *base, const char *suffix, char *temp, size_t templen, char *err,
                          size_t errlen);

/* Gives the complete temporary file its final mode and renames it to 'path'. 0, or the errno. */
int safe_file_publish(int fd, const char *temp, const char *path);

/* Gives a temporary file that is kept (its move failed) the final mode, so it is no more private than the
 * output would have been. */
void safe_file_keep(int fd);

/* Opens 'path' for writing 'what' ("the profile"): in place or a temporary file, as classified. 0, or -1
 * with a message naming the path. */
int safe_file_open(safe_file *f, const char *path, const char *what, char *err, size_t errlen);

/* Completes what safe_file_open opened: closes it and, for a temporary file, moves it over the output.
 * On a failed move the temporary file is kept and err says where. 0 or -1. */
int safe_file_commit(safe_file *f, const char *what, char *err, size_t errlen);

/* How long a write into a FIFO, pipe or terminal waits for its reader to take anything. */
#define SAFE_FILE_STALL_MS 2000

/* Writes all of buf to fd (an output opened here, or standard output), waiting at most SAFE_FILE_STALL_MS
 * at a time for a non-blocking descriptor's reader. False with errno set (ETIMEDOUT: the reader took
 * nothing for that long). */
bool safe_file_write_all(int fd, const void *buf, size_t len);

/* A stdio stream over f's descriptor writing through safe_file_write_all; fclose leaves the descriptor
 * open for safe_file_commit. NULL with errno on failure. */
FILE *safe_file_stream(safe_file *f);

/* Closes an output whose writing failed; a temporary file is removed (nothing half-written is left). */
void safe_file_abandon(safe_file *f);

#endif
