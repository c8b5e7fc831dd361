import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Produces up to 2^21 distinct Java stacks: a 21-level recursion where each level calls left() or right()
 * by one bit of a counter (pseudo-random, so samples rarely repeat a stack), on one thread per CPU, so
 * that a 60 s run at 1 ms meets about 100K distinct stacks. Prints the JVM's resident set at the start
 * and end of its run: RSS start_kb=<n> end_kb=<n>. Usage: java BenchManyStacks <cpu seconds per thread>
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

    static final int LEVELS = 20;

    static int scramble(int i) {
        int x = i * 0x9E3779B9;
        return x ^ (x >>> 15);
    }

    static void run(double seconds, int seed) {
        var threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long end = threads.getCurrentThreadCpuTime() + (long) (seconds * 1e9);
        long local = 0;
        for (int i = seed << 24; threads.getCurrentThreadCpuTime() < end; i++) {
            for (int k = 0; k < 1000; k++) local += step(LEVELS, scramble(i * 1000 + k), k);
        }
        sink += local;
    }

    static long rssKb() throws Exception {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmRSS:")) return Long.parseLong(line.replaceAll("[^0-9]", ""));
        }
        return -1;
    }

    public static void main(String[] args) throws Exception {
        double seconds = Double.parseDouble(args[0]);
        // Warm up first so the JIT's own memory is in the baseline.
        for (int i = 0; i < 200000; i++) sink += step(LEVELS, scramble(i), i);
        long start = rssKb();
        Thread[] workers = new Thread[Runtime.getRuntime().availableProcessors()];
        for (int t = 0; t < workers.length; t++) {
            int seed = t;
            workers[t] = new Thread(() -> run(seconds, seed), "many-stacks-" + t);
            workers[t].start();
        }
        for (Thread w : workers) w.join();
        System.out.println("RSS start_kb=" + start + " end_kb=" + rssKb());
    }
}
