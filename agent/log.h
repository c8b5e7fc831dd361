/*
 * log: the agent's messages to the user (stderr or log=FILE). Never called from signal handlers.
 */
#ifndef LIBPROF_LOG_H
#define LIBPROF_LOG_H

enum { LOG_DEBUG = 0, LOG_INFO, LOG_WARN, LOG_ERROR, LOG_NONE };

/* Accepted names: debug, info, warn, error, none. Returns -1 for anything else. */
int log_level_from_name(const char *name);
const char *log_level_name(int level);

/* Sends messages at or above 'level' to 'path' (NULL or "" = stderr). Returns -1 when the file cannot
 * be opened (messages then keep going to stderr). */
int log_configure(const char *path, int level);

void log_msg(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#define log_debug(...) log_msg(LOG_DEBUG, __VA_ARGS__)
#define log_info(...) log_msg(LOG_INFO, __VA_ARGS__)
#define log_warn(...) log_msg(LOG_WARN, __VA_ARGS__)
#define log_error(...) log_msg(LOG_ERROR, __VA_ARGS__)

#endif
