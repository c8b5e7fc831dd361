/*
 * lock_sample: which contended waits a lock profile records, and what each stands for (lock=DURATION), as
 * async-profiler samples them: the waits' durations add up in one counter shared by monitors and parks,
 * and the wait that makes it pass DURATION is recorded. So a wait of at least DURATION always is, and short
 * waits are recorded in proportion to their total time instead of never (a threshold would hide a lock taken
 * a million times for 5 us each). Weight: what the recorded wait stands for, DURATION for a shorter wait (it
 * was picked with a chance of about its length / DURATION), its own length otherwise, so the weights add up
 * to an estimate of all the time waited (async-profiler weighs a picked short wait by its length only).
 */
#ifndef LIBPROF_LOCK_SAMPLE_H
#define LIBPROF_LOCK_SAMPLE_H

#include <stdbool.h>
#include <stdint.h>

/* A new session: the counter starts empty; 'interval_ns' 0 records every wait. */
void lock_sample_reset(uint64_t interval_ns);

/* A wait of 'waited' ns ended: true when it is recorded, with its weight in *weight. Thread-safe. */
bool lock_sample_pick(uint64_t waited, uint64_t *weight);

#endif
