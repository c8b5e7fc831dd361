/*
 * The benchmarks' process CPU clock (BenchClock.processCpuNanos): clock_gettime(CLOCK_PROCESS_CPUTIME_ID), every
 * thread of the process, live or ended, in nanoseconds. The JDK's OperatingSystemMXBean.getProcessCpuTime reads
 * times() on Linux and moves in 10 ms steps: over a workload unit of ~25 ms that step is larger than the
 * overhead the side-by-side benchmark compares.
 */
#include <jni.h>
#include <time.h>

JNIEXPORT jlong JNICALL Java_BenchClock_processCpuNanos(JNIEnv *env, jclass clazz)
{
    (void)env;
    (void)clazz;
    struct timespec now;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now) != 0) return -1;
    return (jlong)now.tv_sec * 1000000000LL + now.tv_nsec;
}
