/*
 * A call chain compiled without frame pointers (dwarf_chain.c: -fomit-frame-pointer
 * -fno-optimize-sibling-calls) for the unwind tests: chain_a -> chain_b -> chain_c, where chain_c captures
 * its own pc/sp/fp and hands them to chain_leaf_hook while the chain is still on the stack, and every
 * function records its return address as the compiler knows it.
 */
#ifndef TEST_DWARF_CHAIN_H
#define TEST_DWARF_CHAIN_H

#include <stdint.h>

typedef struct {
    uintptr_t pc, sp, fp;
} chain_regs;

/* Called with the registers at a point inside the leaf; set by the test. */
extern void (*chain_leaf_hook)(const chain_regs *regs);
extern uintptr_t chain_returns[3];    /* [0] chain_c's return address (into chain_b), [1] chain_b's, [2] chain_a's */
extern uintptr_t chain_cfas[3];       /* their CFAs (__builtin_dwarf_cfa): the caller's sp once stepped out */

int chain_a(int n);
int chain_b(int n);
int chain_c(int n);

/* Calls qsort with a comparator (also without frame pointers) that calls chain_leaf_hook at its first
 * call, so a walk must go through libc's qsort frames to get back here. */
int chain_qsort(void);

#endif
