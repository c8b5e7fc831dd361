/*
 * span_clock_claim: a thread's slot in span_clock's table, claimed by the thread itself (from the Java
 * API's natives), never by a handler. A slot stays with its thread id for the life of the process: a new
 * thread that reuses the id reuses the slot, whose time is then older than anything the thread starts.
 */
#ifndef LIBPROF_SPAN_CLOCK_CLAIM_H
#define LIBPROF_SPAN_CLOCK_CLAIM_H

#include "span_clock.h"

/* The slot's time field for thread 'tid', or NULL when the probe range of its hash is full. */
_Atomic uint64_t *span_clock_claim(uint32_t tid);

#endif
