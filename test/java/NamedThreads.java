import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * Three named threads, each burning CPU in a method of its own, so a profile keyed by thread must put
 * alphaWork under [alpha-worker ...], betaWork under [beta-worker ...] and gammaWork under [gamma-worker ...].
 * Usage: java NamedThreads [seconds=2]
 */
public class NamedThreads {
    static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    static volatile long sink;

    static long burn(long cpuNs) {
        long end = THREADS.getCurrentThreadCpuTime() + cpuNs;
        long x = 7;
        while (THREADS.getCurrentThreadCpuTime() < end) {
            for (int i = 0; i < 20000; i++) x = x * 6364136223846793005L + 1442695040888963407L;
        }
        return x;
    }

    static void alphaWork(long ns) { sink += burn(ns); }
    static void betaWork(long ns) { sink += burn(ns); }
    static void gammaWork(long ns) { sink += burn(ns); }

    public static void main(String[] args) throws InterruptedException {
        long ns = (long) ((args.length > 0 ? Double.parseDouble(args[0]) : 2) * 1e9);
        Thread[] workers = {
            new Thread(() -> alphaWork(ns), "alpha-worker"),
            new Thread(() -> betaWork(ns), "beta-worker"),
            new Thread(() -> gammaWork(ns), "gamma-worker"),
        };
        for (Thread t : workers) t.start();
        for (Thread t : workers) t.join();
        System.out.println("done");
    }
}
