/* [signal-safe] perf_sigtrap: see perf_sigtrap.h. */
#define _GNU_SOURCE
#include "perf_sigtrap.h"

#include "sample.h"
#include "sigtrap_guard.h"

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The kernel's siginfo of a TRAP_PERF signal (asm-generic/siginfo.h, _sigfault._perf), whose fields glibc
 * 2.36's siginfo_t does not name: the three ints of the header padded to 8 bytes, si_addr, then the event's
 * sig_data, its type and flags. */
typedef struct {
    int signo, error, code, padding;
    void *addr;
    unsigned long data;
    uint32_t type, flags;
} perf_siginfo_view;

#if defined(__x86_64__) || defined(__aarch64__)
_Static_assert(offsetof(perf_siginfo_view, data) == 0x18, "si_perf_data is at 0x18 on 64-bit Linux");
#else
#error "perf_siginfo_view: the TRAP_PERF siginfo layout is checked for x86-64 and aarch64 only"
#endif

bool perf_sigtrap_is_ours(const siginfo_t *info) {
    if (!info || info->si_signo != SIGTRAP || info->si_code != TRAP_PERF) return false;
    unsigned long data;
    memcpy(&data, (const char *)info + offsetof(perf_siginfo_view, data), sizeof(data));
    return data == PERF_SIGTRAP_COOKIE;
}

void perf_sigtrap_handler(int signo, siginfo_t *info, void *ucontext) {
    if (perf_sigtrap_is_ours(info)) {
        sample_signal_handler(signo, info, ucontext);
        return;
    }
    /* Not ours (a breakpoint, a kill -TRAP, another tool's event): what the application set for SIGTRAP, the
     * default action if nothing (sigtrap_guard). */
    int saved = errno;
    sigtrap_guard_chain(signo, info, ucontext);
    errno = saved;
}
