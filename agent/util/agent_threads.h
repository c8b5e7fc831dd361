/*
 * agent_threads: the threads the agent itself runs (periodic watches, the JFR writer, the loop and timeout
 * threads, the wall timer), registered by tid while they run, so that wall-clock sampling leaves them out:
 * they spend their lives waiting for their next tick, and would fill a wall profile with the profiler's own
 * sleeps. Started through agent_thread_create, a thread is named (as the OS and the profiles show it) and
 * registered while its function runs. Lock-free; a fixed number of slots (more threads than that are simply
 * not left out).
 */
#ifndef LIBPROF_AGENT_THREADS_H
#define LIBPROF_AGENT_THREADS_H

#include <stdbool.h>
#include <stdint.h>

#include <pthread.h>

/* pthread_create for a thread of the agent's: it runs fn(arg) registered, named 'name' (a string literal; the
 * OS keeps 15 characters). 0, or pthread_create's error. */
int agent_thread_create(pthread_t *thread, const pthread_attr_t *attr, const char *name, void *(*fn)(void *),
                        void *arg);
bool agent_thread_is_ours(uint32_t tid);

#endif
