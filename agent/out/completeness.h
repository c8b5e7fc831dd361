/*
 * completeness: how complete a profile is, said the same way in every output: the samples that were not
 * stored (dropped, by reason) and the samples stored as failure markers (failed stack walks, by marker).
 * The failed ones are already in the stacks as marker frames; the dropped ones are in no stack, so each
 * writer states them (a header line, a comment, metadata, or a marker stack in collapsed text).
 */
#ifndef LIBPROF_COMPLETENESS_H
#define LIBPROF_COMPLETENESS_H

#include "profile.h"

#include <stddef.h>
#include <stdint.h>

uint64_t completeness_dropped(const profile *p);
uint64_t completeness_failed(const profile *p);

/* One line, e.g. "1200 samples; dropped 3 (ring_full 3); failed walks 5 (0.42%: [unknown_Java] 5)"; the
 * lists are left out when empty. Always NUL-terminated. */
void completeness_summary(const profile *p, char *buf, size_t len);

/* The name of the marker frame that stands for samples dropped for 'reason' in stack formats. */
void completeness_drop_frame(const char *reason, char *buf, size_t len);

#endif
