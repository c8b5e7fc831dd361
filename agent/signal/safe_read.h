/*
 * [signal-safe] safe_read: reads a word of memory that may not be mapped, without any risk of a fault. Every read of a
 * frame pointer or stack slot the signal path is not certain about goes through here.
 */
#ifndef LIBPROF_SAFE_READ_H
#define LIBPROF_SAFE_READ_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

/* How addresses that are not proven mapped are read (see safe_read.c). */
typedef enum { SAFE_READ_FAULT, SAFE_READ_SYSCALL, SAFE_READ_BOUNDED } safe_read_mechanism;

/* Chooses the mechanism: when profiling starts (safe_read_mode.c), or when the fault handler is replaced. */
void safe_read_set_mechanism(safe_read_mechanism m);
safe_read_mechanism safe_read_get_mechanism(void);

/* Tells safe_read the signal mask of the interrupted code: where it blocks SIGSEGV or SIGBUS, a fault
 * cannot be recovered and reads keep to proven memory. Async-signal-safe; call at the start of each
 * handler. */
void safe_read_note_signal_mask(const sigset_t *interrupted);

/* True and *out set when addr..addr+7 is readable; false otherwise. Async-signal-safe. */
bool safe_read_word(uintptr_t addr, uintptr_t *out);

/* Tells safe_read where the interrupted thread's stack pointer is, so reads on its stack need no system
 * call: the first time for a thread with no recorded bounds, probes once which pages above it are mapped.
 * Async-signal-safe; call at the start of each walk. */
void safe_read_note_stack_pointer(uintptr_t sp);

/* Registers memory the JVM keeps mapped for as long as it runs and never shrinks, whose readable part is
 * [low, *high_at) with *high_at growing over time (a code heap's committed part). high_at must itself point
 * into a VM object that lives as long as the VM. Up to 32 regions; call before walks read them, outside
 * signal handlers. Returns -1 when the table is full. */
int safe_read_add_growing_region(uintptr_t low, const uintptr_t *high_at);

/* Registers [low, high): memory mapped readable for as long as the VM runs (the JVM's own mapped files).
 * Same table and rules as safe_read_add_growing_region. */
int safe_read_add_fixed_region(uintptr_t low, uintptr_t high);

/* Its signal-safe half: the calling thread's stack is [low, high). */
void safe_read_set_thread_stack(uintptr_t low, uintptr_t high);

#endif
