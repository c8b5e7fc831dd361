/*
 * A JNI library with a known native call chain, for the mixed-stack tests:
 *   NativeChain.spin (Java, native) -> Java_NativeChain_spin -> chain_a -> chain_b -> chain_c (spins)
 * Built twice by CMake, with and without frame pointers, both with -fno-optimize-sibling-calls and the
 * chain functions kept out of line, so every frame really exists.
 */
#include <jni.h>
#include <stdint.h>
#include <time.h>

#define CHAIN_FN __attribute__((noinline, visibility("default")))

static volatile uint64_t sink;

static uint64_t thread_cpu_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Checks the clock rarely (about once per millisecond of work) so almost every sample lands in chain_c. */
CHAIN_FN uint64_t chain_c(uint64_t cpu_ns) {
    uint64_t end = thread_cpu_ns() + cpu_ns, x = 88172645463325252ULL;
    do {
        for (int i = 0; i < 400000; i++) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
        }
        sink += x;
    } while (thread_cpu_ns() < end);
    return x;
}

CHAIN_FN uint64_t chain_b(uint64_t cpu_ns) {
    return chain_c(cpu_ns) + 1;
}

CHAIN_FN uint64_t chain_a(uint64_t cpu_ns) {
    return chain_b(cpu_ns) + 1;
}

JNIEXPORT jlong JNICALL Java_NativeChain_spin(JNIEnv *env, jclass cls, jlong cpu_ns) {
    (void)env, (void)cls;
    return (jlong)chain_a((uint64_t)cpu_ns) + 1;
}
