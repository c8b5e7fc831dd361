/* WindowWorkload's natives: a hot loop inside the window (between window_marker_begin and window_marker_end,
 * called through this library's import table) and one outside it, each until the thread has used 'ms'
 * milliseconds of CPU: CPU samples then follow the work done, however busy the machine is. */
#include <jni.h>
#include <stdint.h>
#include <time.h>

void window_marker_begin(void);
void window_marker_end(void);

static uint64_t cpu_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static volatile uint64_t sink;

__attribute__((noinline)) static void spin_inside_window(uint64_t ms) {
    uint64_t end = cpu_ns() + ms * 1000000ULL, x = 7;
    while (cpu_ns() < end)
        for (int i = 0; i < 20000; i++) x = x * 6364136223846793005ULL + (uint64_t)i;
    sink += x;
}

__attribute__((noinline)) static void spin_outside_window(uint64_t ms) {
    uint64_t end = cpu_ns() + ms * 1000000ULL, x = 11;
    while (cpu_ns() < end)
        for (int i = 0; i < 20000; i++) x = x * 2862933555777941757ULL + (uint64_t)i;
    sink += x;
}

JNIEXPORT void JNICALL Java_WindowWorkload_inside(JNIEnv *env, jclass c, jint ms) {
    (void)env, (void)c;
    window_marker_begin();
    spin_inside_window((uint64_t)ms);
    window_marker_end();
}

JNIEXPORT void JNICALL Java_WindowWorkload_outside(JNIEnv *env, jclass c, jint ms) {
    (void)env, (void)c;
    spin_outside_window((uint64_t)ms);
}
