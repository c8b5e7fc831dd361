import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What the overhead workloads print for each unit of work: "ITER <wall ms> CPU <process CPU ms>". The CPU
 * time is the whole process's (every thread, the application's, the JIT's, the GC's and the profiler's own),
 * so a harness can compare CPU per unit of work, which a busy shared machine disturbs far less than wall time.
 * With -Dbench.clock=<path of libbench_clock.so> it is clock_gettime(CLOCK_PROCESS_CPUTIME_ID) in nanoseconds
 * (bench/process_cpu_clock.c); without, the JDK's OperatingSystemMXBean, which reads times() on Linux and moves
 * in 10 ms steps. The first line printed says which: "CLOCK native" or "CLOCK mxbean". At the end
 * "CPU_TOTAL <ms>": the whole run up to that point (start-up and the profiler's initialisation included, its
 * final dump not).
 */
final class BenchClock {
    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private static final boolean NATIVE = loadNative();
    private long wall = System.nanoTime(), cpu = cpuNanos();

    private static boolean loadNative() {
        String path = System.getProperty("bench.clock");
        boolean loaded = false;
        if (path != null) {
            if (!Files.isRegularFile(Path.of(path)))
                throw new IllegalArgumentException("bench.clock=" + path + ": no such file (expected libbench_clock.so)");
            System.load(Path.of(path).toAbsolutePath().toString());
            loaded = true;
        }
        System.out.println("CLOCK " + (loaded ? "native" : "mxbean"));
        return loaded;
    }

    private static native long processCpuNanos();

    static long cpuNanos() {
        return NATIVE ? processCpuNanos() : OS.getProcessCpuTime();
    }

    /** Ends one unit of work (begun at construction or at the previous call) and prints its line. */
    void iteration() {
        long nowWall = System.nanoTime(), nowCpu = cpuNanos();
        System.out.printf("ITER %.3f CPU %.3f%n", (nowWall - wall) / 1e6, (nowCpu - cpu) / 1e6);
        wall = nowWall;
        cpu = nowCpu;
    }

    static void total() {
        System.out.printf("CPU_TOTAL %.3f%n", cpuNanos() / 1e6);
    }
}
