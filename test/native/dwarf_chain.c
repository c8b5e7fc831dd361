/* Built with -fomit-frame-pointer -fno-optimize-sibling-calls (see tests.cmake): unwinding through these
 * frames needs the DWARF tables. noinline/noclone keep each function a frame of its own and its symbol. */
#include "dwarf_chain.h"

#include <stdlib.h>

void (*chain_leaf_hook)(const chain_regs *regs);
uintptr_t chain_returns[3];
uintptr_t chain_cfas[3];
static volatile int sink;

/* The current pc (x86_64: the instruction after the lea; aarch64: the adr itself), sp and the frame
 * pointer, in one asm statement so that all three describe the same instant. */
#if defined(__x86_64__)
#define CAPTURE(regs)                                                                    \
    __asm__ volatile("lea 0(%%rip), %0\n\tmov %%rsp, %1\n\tmov %%rbp, %2"                  \
                     : "=&r"((regs).pc), "=&r"((regs).sp), "=&r"((regs).fp))
#elif defined(__aarch64__)
#define CAPTURE(regs)                                                                    \
    __asm__ volatile("adr %0, .\n\tmov %1, sp\n\tmov %2, x29"                              \
                     : "=&r"((regs).pc), "=&r"((regs).sp), "=&r"((regs).fp))
#else
#error "dwarf_chain.c: no register capture for this processor"
#endif

__attribute__((noinline, noclone)) int chain_c(int n) {
    volatile int local[8];  /* a frame of its own: sub rsp */
    for (int i = 0; i < 8; i++) local[i] = n + i;
    chain_regs regs;
    CAPTURE(regs);
    chain_leaf_hook(&regs);
    chain_returns[0] = (uintptr_t)__builtin_return_address(0);
    chain_cfas[0] = (uintptr_t)__builtin_dwarf_cfa();
    return local[n & 7];
}

__attribute__((noinline, noclone)) int chain_b(int n) {
    /* A variable-length array makes GCC address the frame through rbp: the CFA rule switches to rbp. */
    volatile char vla[n + 16];
    vla[0] = (char)n;
    int r = chain_c(n) + vla[0];
    chain_returns[1] = (uintptr_t)__builtin_return_address(0);
    chain_cfas[1] = (uintptr_t)__builtin_dwarf_cfa();
    return r + vla[n];
}

__attribute__((noinline, noclone)) int chain_a(int n) {
    volatile long pad[5] = {1, 2, 3, 4, 5};
    int r = chain_b(n + (int)pad[n % 5]);
    chain_returns[2] = (uintptr_t)__builtin_return_address(0);
    chain_cfas[2] = (uintptr_t)__builtin_dwarf_cfa();
    return r + (int)pad[0];
}

static int captured;

__attribute__((noinline, noclone)) static int compare_ints(const void *a, const void *b) {
    if (!captured) {
        captured = 1;
        chain_regs regs;
        CAPTURE(regs);
        chain_leaf_hook(&regs);
    }
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

__attribute__((noinline, noclone)) int chain_qsort(void) {
    int values[16];
    for (int i = 0; i < 16; i++) values[i] = (i * 7919) % 31;
    captured = 0;
    qsort(values, 16, sizeof(int), compare_ints);
    sink = values[0];
    return values[15];
}
