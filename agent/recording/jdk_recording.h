/*
 * jdk_recording: the JDK's own Flight Recording, run beside ours for jfrsync=SETTINGS. Started through the
 * JDK's public API (jdk.jfr.Configuration, jdk.jfr.Recording) with the settings the user names, stopped
 * when our recording ends; its file is written by the JDK into a private directory of ours (mode 0700,
 * beside our temporary recording), then appended chunk for chunk to our recording. Every JFR chunk is
 * self-contained (its own metadata, constant pools and clock), so the two recorders' chunks side by side
 * are one valid recording: the JDK's events with its pools, ours with ours.
 *
 * The JDK's sampling events that our engines record themselves (jdk.ExecutionSample for cpu and wall, the
 * allocation events for alloc, the monitor and park events for lock) are disabled in its recording, so
 * each is in the file once. Should the JVM exit while profiling, the JDK writes its part from its own
 * shutdown hook (dump on exit, to the same private file), before our VM death handler merges it.
 *
 * Called by the JFR writer (out_jfr) only, from threads the JVM knows or that may attach.
 */
#ifndef LIBPROF_JDK_RECORDING_H
#define LIBPROF_JDK_RECORDING_H

#include "options.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Starts the JDK's recording for o (o->jfrsync: default, profile, a .jfc file, or +event+event); its
 * private directory is made beside 'base'. -1 with the reason in err (no Flight Recorder in this JVM,
 * unknown settings, ...): then nothing is left behind. */
int jdk_recording_start(const prof_options *o, const char *base, char *err, size_t errlen);

/* True while a JDK recording of ours is open (started, not yet merged or discarded). */
bool jdk_recording_open(void);

/* The JVM's Flight Recorder's tick counter now and its ticks per second: nanoseconds of CLOCK_MONOTONIC
 * since the JVM started (10^9 per second), or TSC ticks above 1 GHz (-XX:+UseFastUnorderedTimeStamps on
 * x86). False when it cannot be asked. Needs the recorder started (jdk_recording_start, or a recording the
 * application runs). */
bool jdk_recording_jvm_ticks(uint64_t *ticks, uint64_t *frequency);

/* Stops the JDK's recording and writes its chunks into fd at offset 'at'; *written gets their size.
 * Its private file and directory are removed in every case. -1 with a message when nothing could be
 * added (the recording of ours is untouched past 'at'). */
int jdk_recording_finish(int fd, uint64_t at, uint64_t *written, char *err, size_t errlen);

/* While both record: the JDK's chunks so far (Recording.dump) into a file of its private directory,
 * opened for reading (the caller closes it and calls jdk_recording_snapshot_done); -1 with a message. */
int jdk_recording_snapshot(uint64_t *size, char *err, size_t errlen);
void jdk_recording_snapshot_done(int fd);

/* Start failed later, or the session is abandoned: stops and closes the JDK's recording, removes its file. */
void jdk_recording_discard(void);

#endif
