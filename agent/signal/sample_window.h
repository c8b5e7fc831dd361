/*
 * [signal-safe] sample_window: sampling only inside windows (begin=/end=, ttsp). A window is open between
 * a call of the begin function and a call of the end function (the import hooks call
 * sample_window_begin and sample_window_end), or, for ttsp, while HotSpot brings its threads to a
 * safepoint: SafepointSynchronize::_state is "synchronizing" (read by the handler from the VM's data,
 * where its symbol says it is). A sample outside every window is not taken (counted as outside_window),
 * unless nostop: then every sample is taken and the windows are only recorded.
 *
 * The windows go to the JFR recording as profiler.Window events: a begin/end window from the begin call to
 * the end call; a ttsp window, which no call marks, from the first to the last sample seen during that
 * safepoint's synchronisation (the safepoint's counter tells them apart). They wait in a small ring the
 * JFR writer drains (sample_window_drain).
 */
#ifndef LIBPROF_SAMPLE_WINDOW_H
#define LIBPROF_SAMPLE_WINDOW_H

#include <stdbool.h>
#include <stdint.h>

typedef enum {
    SAMPLE_WINDOW_NONE = 0,   /* every sample is taken */
    SAMPLE_WINDOW_CALLS,      /* between sample_window_begin and sample_window_end */
    SAMPLE_WINDOW_SAFEPOINT,  /* while the VM synchronises a safepoint */
} sample_window_mode;

typedef struct {
    sample_window_mode mode;
    bool nostop;                           /* record the windows, take every sample */
    const volatile int *safepoint_state;   /* SAFEPOINT: SafepointSynchronize::_state */
    const volatile uint64_t *safepoint_id; /* SAFEPOINT: SafepointSynchronize::_safepoint_counter, or NULL */
} sample_window_config;

/* HotSpot's SafepointSynchronize::_synchronizing (JDK 11 to 25). */
#define SAMPLE_WINDOW_SYNCHRONIZING 1

/* Outside handlers, before the engines start (mode NONE turns windows off). */
void sample_window_configure(const sample_window_config *config);

/* In the handler: whether a sample taken now is inside a window; notes the sample in its ttsp window.
 * Always true in mode NONE and with nostop. */
bool sample_window_admits(void);

/* The import hooks of begin= and end=. */
void sample_window_begin(void);
void sample_window_end(void);

/* The JFR writer: calls 'emit' for each window closed since the last call (every window still recorded,
 * when 'all', as the recording ends). */
void sample_window_drain(bool all, void (*emit)(uint64_t start_ticks, uint64_t end_ticks, void *arg), void *arg);

#endif
