import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * For the jfrsync tests: a thread spends the given seconds of CPU time in hotSpin() while the main thread
 * asks for a garbage collection every 200 ms (jdk.GarbageCollection events in the JDK's recording), one
 * before the spinning thread starts and one after it ends, and for at least 1.5 s in all (the JDK's
 * periodic events). Every hotSpin sample therefore lies between the first and the last collection,
 * however long a busy machine makes the spinning take.
 * Usage: java SyncWorkload [cpu seconds=0.5]
 */
public class SyncWorkload {
    static volatile long sink;

    static long hotSpin(long cpuNs) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long until = threads.getCurrentThreadCpuTime() + cpuNs, x = 3;
        while (threads.getCurrentThreadCpuTime() < until) {
            for (int i = 0; i < 100000; i++) x = x * 6364136223846793005L + i ^ (x >>> 31);
        }
        return x;
    }

    static void collect() {
        sink += new byte[1 << 20].length;
        System.gc();
    }

    public static void main(String[] args) throws Exception {
        double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 0.5;
        long end = System.nanoTime() + 1_500_000_000L;
        collect();
        Thread spinner = new Thread(() -> sink += hotSpin((long) (seconds * 1e9)), "sync-spinner");
        spinner.start();
        while (spinner.isAlive() || System.nanoTime() < end) {
            Thread.sleep(200);
            collect();
        }
        spinner.join();
        System.out.println("done " + (sink != 0));
    }
}
