/*
 * jit_stubs: the names HotSpot gives the code it generates outside Java methods (StubRoutines' stubs such
 * as "StubRoutines::jint_disjoint_arraycopy", "vtable stub", "itable stub", adapters), as JVMTI's
 * DynamicCodeGenerated events report them, for naming at dump time the stub frames the cstack=vm walker
 * records where a sample lands in one. Filled by the JVMTI callback (jvm.c), read by frame_names; never by
 * signal handlers.
 */
#ifndef LIBPROF_JIT_STUBS_H
#define LIBPROF_JIT_STUBS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Records [address, address + length) as 'name'. Thread-safe. */
void jit_stubs_add(const void *address, long length, const char *name);

/* The name of the most recently reported code range holding pc. False when none holds it. */
bool jit_stubs_name(uintptr_t pc, char *name, size_t len);

#endif
