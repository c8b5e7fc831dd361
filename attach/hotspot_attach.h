/*
 * hotspot_attach: the HotSpot attach protocol, version 1 (JDK 6 and later, still accepted by JDK 25): a
 * request is the protocol version, a command name and exactly three arguments, each NUL-terminated and at
 * most 1024 bytes; the reply is a result code on the first line and the command's output after it. jprof
 * uses one command, "load": library path, "true" (the path is absolute), agent options.
 * Used by jprof only.
 */
#ifndef JPROF_HOTSPOT_ATTACH_H
#define JPROF_HOTSPOT_ATTACH_H

#include "proc_target.h"

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#define HOTSPOT_ARG_MAX 1024

typedef struct {
    int attach_code;          /* the JVM's result for the command; non-zero: the library was not loaded */
    bool have_agent_code;
    int agent_code;           /* what Agent_OnAttach returned; 0 = success */
    char message[2048];       /* the JVM's text after the result code(s), if any */
} load_reply;

typedef struct {
    int listener_timeout_ms;  /* waiting for the attach listener to start */
    int reply_timeout_ms;     /* waiting for the answer to the load command */
    volatile sig_atomic_t *cancel; /* if not NULL, non-zero ends the wait for the listener (not the reply) */
} attach_timeouts;

/* Loads 'library' into the JVM with 'options'. 0 when the JVM answered (see 'reply' for the outcome),
 * -1 with a message when it could not be asked or did not answer. */
int hotspot_attach_load(const proc_target *t, const char *library, const char *options,
                        const attach_timeouts *timeouts, load_reply *reply, char *err, size_t errlen);

/* Parses the text of a reply to "load". Pure, for the unit tests. -1 when it is not a reply at all. */
int hotspot_parse_load_reply(const char *text, load_reply *reply);

#endif
