/*
 * out_jfr: a profiling session's JFR recording, streamed while profiling. The signal handlers queue one
 * record per sample (sample_ring); a writer thread drains the queue every 100 ms into jdk.ExecutionSample
 * events in the file, and closes a chunk (constant pools, metadata, header) when it reaches chunksize= or
 * chunktime=, then starts the next. Memory is bounded: the queue is fixed, events go straight to the file,
 * and pool state lives only until its chunk is closed. Stacks are stored in one of two trace tables: when
 * the one in use is half full, the chunk is closed and the handlers move to the other, empty one; the
 * full one is reset once its chunk is written. A long recording with ever new stacks therefore neither
 * grows nor runs out of room.
 *
 * The recording is written to a private temporary file beside the target ("<file>.tmp-<pid>-<random>.jfr",
 * safe_file; in $TMPDIR when the session has no file or its file is a device or FIFO) and moved to the
 * target when it is finished, so the target name never holds a recording that is still being written; a
 * failed move keeps it there and says so. That file holds finished chunks only (the chunk in progress has
 * a file of its own, "<file>.tmp-<pid>-<random>.part"), so if the process is killed outright it is a valid
 * recording of every chunk finished so far. A failed write stops the recording and keeps those chunks. A
 * `dump` closes the current chunk and copies the finished chunks to its destination.
 *
 * Called by the profiler only, under its lock.
 */
#ifndef LIBPROF_OUT_JFR_H
#define LIBPROF_OUT_JFR_H

#include "options.h"
#include "sample_ring.h"
#include "traces.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    const prof_options *options;   /* the session's; interval already resolved */
    const char *engine;
    const char *cstack;            /* the stack walking mode in use */
    trace_table *table;            /* the table the handlers store into (index 0 in sample.h's terms) */
    trace_table *spare;            /* an empty table of the same size: the two take turns (below) */
    /* What made the profile incomplete so far (the profiling signal taken by another party...), written
     * into each chunk; "" when nothing did. The session's to say: the writer only records it. */
    void (*incomplete_reason)(char *out, size_t len);
} out_jfr_config;

/* Opens the recording and starts its writer thread. Returns the queue the handlers must fill, or NULL
 * with a message in err. */
sample_ring *out_jfr_start(const out_jfr_config *cfg, char *err, size_t errlen);

/* alloc,live: one sampled object still reachable as the recording ends (before out_jfr_finish), as a
 * profiler.LiveObject event: its stack (the class as its leaf frame) goes into the trace table the chunk's
 * pools read. False when it could not be written (no recording, a full table). */
bool out_jfr_live_object(const trace_frame *frames, uint32_t depth, uint32_t tid, uint64_t ticks, uint64_t size);

/* A span an application recorded on thread 'tid' (in the events' ticks, event_clock.h; tag_key from
 * span_tags), as a profiler.Span event. Called from the application's threads. False without a recording. */
bool out_jfr_span(uint32_t tid, uint64_t start_ticks, uint64_t end_ticks, uint64_t tag_key);

/* 'fn' is told when a recording opens (true) and closes (false), on the thread that opens or closes it,
 * under the profiler's lock: the Java API's recording state (api_span). One listener. */
void out_jfr_listen(void (*fn)(bool recording));

/* True between out_jfr_start and out_jfr_finish / out_jfr_abort. */
bool out_jfr_active(void);

/* True while a recording is open whose session named a file (not standard output): a dump or stop without
 * a file of its own writes there. */
bool out_jfr_has_file(void);

/* While sampling: closes the current chunk and writes every finished chunk to o's file (or standard
 * output). The recording goes on in a new chunk. */
int out_jfr_dump(const prof_options *o, char *err, size_t errlen);

/* After sampling has stopped and no handler runs: writes the last chunk and moves the recording to o's
 * file (the session's when o names none; standard output when neither does). *samples gets the number of
 * samples recorded. */
int out_jfr_finish(const prof_options *o, uint64_t *samples, char *err, size_t errlen);

/* loop=, while sampling goes on: finishes the recording as out_jfr_finish does (to the destination it was
 * opened for) and goes on in a new one, opened for o's file as it expands now (the next period's %n); what
 * the handlers queue meanwhile goes into the new one. 0 when done; 1 when the recording has failed before
 * (a write error): nothing was done, finish it with out_jfr_finish; -1 with a message when the finished
 * recording could not be delivered (the next one goes on) or the next one could not be opened (then no
 * recording is open any more: out_jfr_active tells). */
int out_jfr_roll(const prof_options *o, uint64_t *samples, char *err, size_t errlen);

/* Start failed after out_jfr_start: stops the writer and removes the temporary file. */
void out_jfr_abort(void);

#endif
