/*
 * thread_state_init: installs the layout signal/thread_state_read reads Java thread states with, from the
 * VM structure tables. Called by the wall engine when it starts, outside handlers.
 */
#ifndef LIBPROF_THREAD_STATE_INIT_H
#define LIBPROF_THREAD_STATE_INIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* 0, or -1 with what this JVM does not describe (Java threads then tell only running from in a system
 * call). */
int thread_state_init(char *err, size_t errlen);

/* Where HotSpot keeps a thread's JNIEnv inside its JavaThread (the tables, or the current thread's
 * java.lang.Thread.eetop when they do not say, as in JDK 17); needs the vmstructs tables read. */
bool thread_state_env_offset(uint64_t *offset);

#endif
