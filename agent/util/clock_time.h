/*
 * clock_time: a time of day instead of a duration for timeout= and loop= (async-profiler's loop=hh:mm:ss):
 * "23:00" stops at the next 23:00, "*:00" restarts at every full hour. Packed in a uint32_t so an option
 * field holds it: 0 is "none".
 */
#ifndef LIBPROF_CLOCK_TIME_H
#define LIBPROF_CLOCK_TIME_H

#include <stdint.h>
#include <time.h>

/* Reads "HH:MM", "HH:MM:SS", "*:MM", "*:MM:SS" or "*:*:SS" (local time; '*' any hour or minute; missing
 * seconds are 00). Returns 0 and the packed time, or -1. */
int clock_time_parse(const char *text, uint32_t *out);

/* Seconds from 'now' to the next moment matching 'clock' (local time), at least 1. */
uint64_t clock_time_seconds_until(uint32_t clock, time_t now);

/* Nanoseconds from this instant (the real-time clock) to the next moment matching 'clock'. */
uint64_t clock_time_ns_until(uint32_t clock);

#endif
