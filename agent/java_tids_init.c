/*
 * java_tids_init: the set-up half of java_tids (signal/java_tids.c): one bit per possible thread id,
 * sized by /proc/sys/kernel/pid_max, mapped once. Outside signal handlers; called by jvm.c.
 */
#include "java_tids.h"
#include "java_tids_init.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>

static bool ready;

int java_tids_init(void) {
    if (ready) return 0;
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
    java_tids_use(p, pid_max);
    ready = true;
    return 0;
}

