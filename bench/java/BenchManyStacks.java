import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Produces about 2^17 distinct Java stacks: a 17-level recursion where each level calls left() or right()
 * by one bit of a counter. Prints the JVM's resident set at the start and end of its run:
 *   RSS start_kb=<n> end_kb=<n>. Usage: java BenchManyStacks <cpu seconds>
 */
public class BenchManyStacks {
    static volatile long sink;

    static long work(long x) {
        for (int i = 0; i < 200; i++) x = x * 31 + i;
        return x;
    }

    static long left(int level, int bits, long x) { return level == 0 ? work(x) : step(level - 1, bits, x + 1); }
    static long right(int level, int bits, long x) { return level == 0 ? work(x) : step(level - 1, bits, x + 2); }

    static long step(int level, int bits, long x) {
        return ((bits >>> level) & 1) == 0 ? left(level, bits, x) : right(level, bits, x);
    }

    static long rssKb() throws Exception {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmRSS:")) return Long.parseLong(line.replaceAll("[^0-9]", ""));
        }
        return -1;
    }

    public static void main(String[] args) throws Exception {
        double seconds = Double.parseDouble(args[0]);
        var threads = java.lang.management.ManagementFactory.getThreadMXBean();
        // Warm up first so the JIT's own memory is in the baseline.
        for (int i = 0; i < 200000; i++) sink += step(16, i, i);
        long start = rssKb();
        long end = threads.getCurrentThreadCpuTime() + (long) (seconds * 1e9);
        for (int i = 0; threads.getCurrentThreadCpuTime() < end; i++) {
            for (int k = 0; k < 1000; k++) sink += step(16, i * 1000 + k, k);
        }
        System.out.println("RSS start_kb=" + start + " end_kb=" + rssKb());
    }
}
