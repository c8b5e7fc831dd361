import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.SplittableRandom;

/**
 * One thread spends about 75% (or the share given) of its CPU in burnA and the rest in burnB, in slices of random CPU length so the
 * pattern cannot resonate with timer ticks. Prints the truth it measured with the thread's own CPU clock:
 *   TRUTH burnA=<fraction> burnB=<fraction> threadCpuNs=<n> processCpuNs=<n>
 * Usage: java Burn7525 [seconds=4] [share of burnA=0.75]
 */
public class Burn7525 {
    static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    static volatile long sink;

    /** Integer work with no calls, so every sample lands in this method's own code. */
    static long spin(long x, int rounds) {
        for (int i = 0; i < rounds; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
        }
        return x;
    }

    static long burnA(long cpuNs) {
        long end = THREADS.getCurrentThreadCpuTime() + cpuNs;
        long x = 1;
        while (THREADS.getCurrentThreadCpuTime() < end) x = spin(x, 20000);
        return x;
    }

    static long burnB(long cpuNs) {
        long end = THREADS.getCurrentThreadCpuTime() + cpuNs;
        long x = 2;
        while (THREADS.getCurrentThreadCpuTime() < end) x = spin(x, 20000);
        return x;
    }

    public static void main(String[] args) {
        double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 4;
        double shareA = args.length > 1 ? Double.parseDouble(args[1]) : 0.75;
        SplittableRandom random = new SplittableRandom(42);
        long a = 0, b = 0;
        long start = THREADS.getCurrentThreadCpuTime();
        long stopAt = start + (long) (seconds * 1e9);
        while (THREADS.getCurrentThreadCpuTime() < stopAt) {
            long slice = 300_000 + random.nextLong(4_700_000);   // 0.3 .. 5 ms of CPU
            long before = THREADS.getCurrentThreadCpuTime();
            if (random.nextDouble() < shareA) {
                sink += burnA(slice);
                a += THREADS.getCurrentThreadCpuTime() - before;
            } else {
                sink += burnB(slice);
                b += THREADS.getCurrentThreadCpuTime() - before;
            }
        }
        long threadCpu = THREADS.getCurrentThreadCpuTime() - start;
        long processCpu = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
        System.out.printf("TRUTH burnA=%.4f burnB=%.4f threadCpuNs=%d processCpuNs=%d%n",
                (double) a / (a + b), (double) b / (a + b), threadCpu, processCpu);
    }
}
