import java.lang.management.ManagementFactory;

/**
 * What the overhead workloads print for each unit of work: "ITER <wall ms> CPU <process CPU ms>". The CPU
 * time is the whole process's (clock_gettime(CLOCK_PROCESS_CPUTIME_ID) through the JDK: every thread, the
 * application's, the JIT's, the GC's and the profiler's own), so a harness can compare CPU per unit of work,
 * which a busy shared machine disturbs far less than wall time. At the end "CPU_TOTAL <ms>": the whole run
 * up to that point (start-up and the profiler's initialisation included, its final dump not).
 */
final class BenchClock {
    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private long wall = System.nanoTime(), cpu = OS.getProcessCpuTime();

    /** Ends one unit of work (begun at construction or at the previous call) and prints its line. */
    void iteration() {
        long nowWall = System.nanoTime(), nowCpu = OS.getProcessCpuTime();
        System.out.printf("ITER %.3f CPU %.3f%n", (nowWall - wall) / 1e6, (nowCpu - cpu) / 1e6);
        wall = nowWall;
        cpu = nowCpu;
    }

    static void total() {
        System.out.printf("CPU_TOTAL %.3f%n", OS.getProcessCpuTime() / 1e6);
    }
}
