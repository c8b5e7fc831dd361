/*
 * jfr_value: generic decoding of values by their declared types: skipping a value of any type, finding
 * the fields of a struct, following constant-pool references, reading numbers and text. This is what
 * lets the reader handle any recording (the JDK's hundreds of event types, whose layouts change between
 * releases) while looking only at the fields it needs. Every step spends the chunk's budget, so corrupt
 * nesting or counts end in an error, not a hang. Used by jfr_rchunk (pools) and jfr_sample.
 */
#ifndef LIBPROF_JFR_VALUE_H
#define LIBPROF_JFR_VALUE_H

#include "jfr_rchunk.h"

#include <stddef.h>
#include <stdint.h>

/* Skips one value of field 'f' (array, pool key or inline value) at c->pos. */
int jfr_value_skip_field(jfr_rchunk *ch, jfr_cursor *c, const jfr_field *f);

/* Skips one inline (not pooled, not array) value of type 't'. */
int jfr_value_skip_type(jfr_rchunk *ch, jfr_cursor *c, uint32_t t);

/* Offsets of the first n fields of an inline struct of type 't' starting at 'at'. Fields past the type's
 * field count are set to 0 (absent). */
int jfr_value_fields(jfr_rchunk *ch, size_t at, uint32_t t, size_t *offsets, uint32_t n);

/* Where the value of field 'f' at 'at' really is: for a pooled field the pool entry of its key (0 when
 * the key is not in the pool: a null value), else 'at' itself. */
size_t jfr_value_deref(jfr_rchunk *ch, size_t at, const jfr_field *f);

/* A number: varint, byte/boolean, or the raw bits of a float/double. 0 for an absent field. */
uint64_t jfr_value_number(jfr_rchunk *ch, size_t at, const jfr_field *f);

/* Text of a field: a string (inline or pooled), or a struct whose first field is text (Symbol,
 * FrameType, ThreadState: the JDK's simple types), followed through pools. "" when null. */
int jfr_value_text(jfr_rchunk *ch, size_t at, const jfr_field *f, char *out, size_t outlen);

#endif
