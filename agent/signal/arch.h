/*
 * [signal-safe] arch: the little the agent knows of the processor it runs on, one header per architecture
 * (arch_x86_64.h, arch_aarch64.h), so that the walkers, the fault-tolerant load, the import-slot patcher and
 * the ELF reader are written once: the interrupted registers in a signal's ucontext, the DWARF numbers of
 * the stack, frame and return-address registers, the relocation types of import slots, the cycle counter.
 * Each header defines the same names; anything else is a build error here rather than a wrong walk later.
 * Any module may include it (it is static inline functions and constants only).
 */
#ifndef LIBPROF_ARCH_H
#define LIBPROF_ARCH_H

#if defined(__x86_64__)
#include "arch_x86_64.h"
#elif defined(__aarch64__)
#include "arch_aarch64.h"
#else
#error "libprof is built for Linux on x86_64 and aarch64 only: agent/signal/ has no arch_<cpu>.h for this processor"
#endif

#endif
