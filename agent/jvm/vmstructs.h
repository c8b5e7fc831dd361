/*
 * vmstructs: HotSpot's own description of its data structures, exported from libjvm.so for
 * serviceability tools (gHotSpotVMStructs, gHotSpotVMTypes, gHotSpotVMIntConstants, gHotSpotVMLongConstants).
 * Reading these tables, rather than hard-coding offsets, is what lets the profiler follow the layout of
 * whichever JDK it is loaded into. Read once at start-up, outside signal handlers.
 */
#ifndef LIBPROF_VMSTRUCTS_H
#define LIBPROF_VMSTRUCTS_H

#include <stdbool.h>
#include <stdint.h>

/* Finds the tables in the loaded libjvm.so. Returns -1 (with a reason) when they are not exported. */
int vmstructs_init(char *err, unsigned long errlen);

/* A field's offset (instance fields) or the address of a static field. false when absent. */
bool vmstructs_field_offset(const char *type, const char *field, uint64_t *offset);
/* An instance field's offset and width in bytes (1, 2, 4 or 8, from its declared type; 0 for an embedded
 * structure): for fields whose
 * type differs between JDK versions (CodeBlob::_frame_complete_offset is an int in 17, an int16_t in 25). */
bool vmstructs_field(const char *type, const char *field, uint64_t *offset, unsigned *width);
bool vmstructs_static_address(const char *type, const char *field, void **address);
bool vmstructs_type_size(const char *type, uint64_t *size);
bool vmstructs_int_constant(const char *name, int64_t *value);
bool vmstructs_long_constant(const char *name, int64_t *value);

#endif
