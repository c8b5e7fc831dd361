/*
 * [signal-safe] code_bytes: reading HotSpot's generated machine code from a handler, to recognise the exact
 * instruction sequences (stub_frames.h, transit_frames.h) whose frames no code blob describes. Reads go
 * through codeblob_read_field (safe_read): a byte that cannot be read makes the match fail, never a fault.
 */
#ifndef LIBPROF_CODE_BYTES_H
#define LIBPROF_CODE_BYTES_H

#include <stdbool.h>
#include <stdint.h>

/* The longest stretch code_bytes_find_unique scans. */
#define CODE_BYTES_MAX_SCAN 1024

/* n bytes of code at 'at' into buf. */
bool code_bytes_read(uintptr_t at, uint8_t *buf, unsigned n);

/* True when the n (at most 16) bytes at 'at' are 'want'. */
bool code_bytes_are(uintptr_t at, const uint8_t *want, unsigned n);

/* The one place in [from, to) (at most CODE_BYTES_MAX_SCAN bytes) where the n bytes 'want' start, or 0 when
 * there is none or more than one. */
uintptr_t code_bytes_find_unique(uintptr_t from, uintptr_t to, const uint8_t *want, unsigned n);

/* The little-endian int32 at p (an immediate or displacement). */
int32_t code_bytes_i32(const uint8_t *p);

#endif
