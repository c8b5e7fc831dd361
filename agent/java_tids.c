/* Runs in signal handlers: async-signal-safe code only (java_tids_contains). */
#include "java_tids.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>

static _Atomic uint64_t *bits;
static size_t bit_count;

int java_tids_init(void) {
    if (bits) return 0;
    size_t pid_max = 4194304;  /* the kernel's upper limit, if pid_max cannot be read */
    FILE *f = fopen("/proc/sys/kernel/pid_max", "r");
    if (f) {
        unsigned long v;
        if (fscanf(f, "%lu", &v) == 1 && v > 0 && v <= 4194304) pid_max = v;
        fclose(f);
    }
    size_t bytes = (pid_max + 63) / 64 * sizeof(uint64_t);
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) return -1;
    bit_count = pid_max;
    bits = p;
    return 0;
}

void java_tids_add(int tid) {
    if (bits && tid > 0 && (size_t)tid < bit_count) atomic_fetch_or(&bits[tid / 64], 1ULL << (tid % 64));
}

void java_tids_remove(int tid) {
    if (bits && tid > 0 && (size_t)tid < bit_count) atomic_fetch_and(&bits[tid / 64], ~(1ULL << (tid % 64)));
}

bool java_tids_contains(int tid) {
    if (!bits || tid <= 0 || (size_t)tid >= bit_count) return false;
    return (atomic_load_explicit(&bits[tid / 64], memory_order_relaxed) >> (tid % 64)) & 1;
}
