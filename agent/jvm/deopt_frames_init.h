/*
 * deopt_frames_init: installs signal/deopt_frames' layout from the VM structure tables, outside handlers.
 */
#ifndef LIBPROF_DEOPT_FRAMES_INIT_H
#define LIBPROF_DEOPT_FRAMES_INIT_H

#include <stdbool.h>

/* false when this JVM does not describe a deoptimisation in progress (its frames then end in a marker). */
bool deopt_frames_init(void);

#endif
