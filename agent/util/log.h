/*
 * log: the agent's messages to the user. Never called from signal handlers.
 *
 * Two destinations. The session's: the log= given at start-up or with the request that started the
 * session (stderr without one). A request's: an attach request's own log= (jprof reads the agent's words
 * from the file it passes), in force only until that request ends; then messages go back to the session's.
 * The application's stderr is the application's: without loglevel= only warnings and errors go there; a
 * log= file gets info too.
 */
#ifndef LIBPROF_LOG_H
#define LIBPROF_LOG_H

#include <stddef.h>

/* Their names (loglevel=debug, ...) are the option table's (options_table.c), nowhere else. */
enum { LOG_DEBUG = 0, LOG_INFO, LOG_WARN, LOG_ERROR, LOG_NONE };
#define LOG_LEVEL_UNSET (-1)   /* no loglevel= given: log_effective_level decides */

/* 'level' itself when given; otherwise info into a file (path non-empty), warn on stderr. */
int log_effective_level(const char *path, int level);

/* Makes 'path' (NULL or "" = stderr) the session's destination at 'level' (LOG_LEVEL_UNSET allowed).
 * A path that cannot be used safely (see log_open_file) is refused: -1 with the reason in err, and the
 * session's messages go to stderr. */
int log_open_session(const char *path, int level, char *err, size_t errlen);

/* Until log_end_request: messages go to 'path' (NULL or "" = the session's destination) at 'level'
 * (unset: the session's level, or info into a file). -1 with the reason in err when the file is refused;
 * the request's messages then go to the session's destination. */
int log_begin_request(const char *path, int level, char *err, size_t errlen);

/* The request started a session: its destination and level become the session's. */
void log_keep_request_for_session(void);

/* Back to the session's destination and level. */
void log_end_request(void);

/* Opens 'path' for appending without following a symbolic link, without blocking (a FIFO), and only when
 * it is a regular file of this process's user with no other link, or a character device (a terminal).
 * Creates it 0600 when missing. Returns the descriptor, or -1 with the reason in err. */
int log_open_file(const char *path, char *err, size_t errlen);

void log_msg(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#define log_debug(...) log_msg(LOG_DEBUG, __VA_ARGS__)
#define log_info(...) log_msg(LOG_INFO, __VA_ARGS__)
#define log_warn(...) log_msg(LOG_WARN, __VA_ARGS__)
#define log_error(...) log_msg(LOG_ERROR, __VA_ARGS__)

#endif
