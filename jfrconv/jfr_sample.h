/*
 * jfr_sample: the sampling events of a chunk (jdk.ExecutionSample, jdk.NativeMethodSample) and what
 * they refer to: thread, stack trace (frames: method, frame type, line), thread state. Field positions are
 * looked up by name in the chunk's own metadata, so the JDK's layouts (which differ between releases) and
 * ours are read alike. Values are identified by their file offset, which callers use as a cache key.
 * Used by jfr_convert.
 */
#ifndef LIBPROF_JFR_SAMPLE_H
#define LIBPROF_JFR_SAMPLE_H

#include "jfr_rchunk.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint32_t type;                       /* event type index */
    int time, thread, stack, state, weight, address;  /* field indexes, -1 when the type has no such field */
    int count;                           /* the samples one event stands for (async-profiler's batched wall
                                            samples, profiler.WallClockSample), -1: each event is one */
    int cls, cls_inner;                  /* the class field (and the field of it that is the class: OldObject.type) */
    bool weight_in_ticks;                /* the weight is a duration in ticks: converted to ns */
    bool free_event;                     /* profiler.Free */
    int class_kind;                      /* frame_kind of the class leaf (a FRAME_CLASS_* of frame.h), -1 without */
} jfr_sample_layout;

typedef enum {
    JFR_EVENTS_CPU,          /* jdk.ExecutionSample, jdk.NativeMethodSample, profiler.WallClockSample */
    JFR_EVENTS_CPU_ONLY,     /* jdk.ExecutionSample */
    JFR_EVENTS_ALLOC,        /* jdk.ObjectAllocationSample; ...InNewTLAB / ...OutsideTLAB where a chunk has none */
    JFR_EVENTS_LIVE,         /* jdk.OldObjectSample: objects still alive when the recording ended */
    JFR_EVENTS_LOCK,         /* jdk.JavaMonitorEnter, jdk.ThreadPark */
    JFR_EVENTS_NATIVEMEM,    /* profiler.Malloc (weight: size) and profiler.Free */
    JFR_EVENTS_NATIVELOCK,   /* profiler.NativeLock (weight: duration) */
    JFR_EVENTS_TRACE,        /* jdk.MethodTrace: calls of traced methods (weight: duration) */
    JFR_EVENTS_INTERVALS,    /* jdk.MethodTrace and profiler.Span, stack or not: the intervals --latency keeps */
} jfr_event_set;

typedef struct {
    jfr_rchunk *ch;
    jfr_sample_layout layouts[4];        /* room for the most one set reads (3: CPU, allocation) */
    int layout_count;
    bool stackless;                      /* events without a stackTrace field are read too (intervals) */
    size_t *scratch;                     /* field offsets */
    uint32_t scratch_capacity;
    size_t *frames;                      /* offsets of the frames of the last stack read */
    uint32_t frame_capacity;
} jfr_sample_reader;

typedef struct {
    uint64_t time_ns;                    /* wall clock, ns since the epoch */
    uint64_t weight;                     /* the event's weight field, else its samples */
    uint64_t samples;                    /* the samples it stands for: its count field, else 1 */
    size_t thread, stack, state;         /* value offsets (0: null) */
    const jfr_field *thread_field, *stack_field, *state_field;
    bool native_event;                   /* jdk.NativeMethodSample */
    const jfr_sample_layout *layout;
    size_t cls;                          /* the class struct's value offset (0: none) */
    const jfr_field *cls_field;
    bool free_event;                     /* profiler.Free: no weight, matched by address */
    uint64_t address;                    /* profiler.Malloc, profiler.Free: the block */
} jfr_sample;

typedef struct {
    char cls[512], method[512], descriptor[512], frame_type[64];
    bool hidden;
    int line, bci;                       /* the frame's lineNumber and bytecodeIndex, -1 when absent */
} jfr_frame_info;

/* Finds the event types of 'set' the chunk declares. Returns how many (0: nothing to read in it). */
int jfr_sample_reader_init(jfr_sample_reader *r, jfr_rchunk *ch, jfr_event_set set);

/* Reads only the layout of 'event' (drops the others); false when the chunk has no such type. */
bool jfr_sample_reader_only(jfr_sample_reader *r, const char *event);

/* The name of the sample's class (objectClass, monitorClass...) as the JDK writes it ("java/lang/String",
 * "[B"); "" when the event has none. */
int jfr_sample_class(jfr_sample_reader *r, const jfr_sample *s, char *out, size_t len);
void jfr_sample_reader_free(jfr_sample_reader *r);

/* 1 with *s filled when 'ev' is a sampling event, 0 when it is another event, -1 on error. */
int jfr_sample_read(jfr_sample_reader *r, const jfr_revent *ev, jfr_sample *s);

/* The frames of a stack trace value (leaf first): *frames points at 'n' frame value offsets, valid until
 * the next call. Returns -1 on error. */
int jfr_sample_stack(jfr_sample_reader *r, const jfr_sample *s, bool *truncated, const size_t **frames,
                     uint32_t *n);

/* The method, frame type and line of one frame; the method's hidden flag. */
int jfr_sample_frame(jfr_sample_reader *r, const jfr_sample *s, size_t frame, jfr_frame_info *out, size_t *method);

/* The thread's name (javaName, else osName) and OS thread id. */
int jfr_sample_thread(jfr_sample_reader *r, const jfr_sample *s, char *name, size_t len, uint64_t *tid);

/* The thread state's name, e.g. "STATE_RUNNABLE" ("" when null). */
int jfr_sample_state(jfr_sample_reader *r, const jfr_sample *s, char *out, size_t len);

/* True when the chunk's jdk.types.ThreadState pool has an entry named 'name' among keys 0..255. */
bool jfr_sample_chunk_has_state(jfr_sample_reader *r, const char *name);

#endif
