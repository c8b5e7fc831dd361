/*
 * [signal-safe] codeheap: the address range of the JVM's code cache (interpreter, stubs, JIT-compiled methods), from
 * CodeCache::_low_bound/_high_bound in the VM's own structure tables. A native stack walk that reaches a
 * pc inside it has reached Java code, where AsyncGetCallTrace takes over.
 */
#ifndef LIBPROF_CODEHEAP_H
#define LIBPROF_CODEHEAP_H

#include <stdbool.h>
#include <stdint.h>

/* Its signal-safe half: the code cache is [low, high). */
void codeheap_set_bounds(uintptr_t low, uintptr_t high);

/* Async-signal-safe. False before codeheap_init succeeded. */
bool codeheap_contains(uintptr_t pc);

#endif
