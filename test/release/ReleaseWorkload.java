/*
 * The release test's allocation and lock workload, in Java 8 syntax so that every JDK of the roots compiles
 * it: "alloc S" allocates 64 KiB arrays in allocate() for S seconds; "lock S" has four threads contend for
 * one monitor in contend(), each holding it 2 ms at a time, for S seconds.
 */
public class ReleaseWorkload {
    static final Object MONITOR = new Object();
    static volatile Object sink;

    static void allocate(long end) {
        while (System.nanoTime() < end) sink = new byte[64 * 1024];
    }

    static void contend(long end) {
        while (System.nanoTime() < end) {
            synchronized (MONITOR) {
                long hold = System.nanoTime() + 2_000_000;
                while (System.nanoTime() < hold) sink = MONITOR;
            }
        }
    }

    public static void main(String[] args) throws Exception {
        final long end = System.nanoTime() + (long) (Double.parseDouble(args[1]) * 1e9);
        if (args[0].equals("alloc")) {
            allocate(end);
        } else if (args[0].equals("lock")) {
            Thread[] threads = new Thread[4];
            for (int i = 0; i < threads.length; i++) {
                threads[i] = new Thread(() -> contend(end), "contender-" + i);
                threads[i].start();
            }
            for (Thread t : threads) t.join();
        } else {
            throw new IllegalArgumentException("mode " + args[0] + ": accepted: alloc, lock");
        }
    }
}
