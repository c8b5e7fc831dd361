import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * Starts and ends many short threads, a batch at a time, each burning a little CPU so the profiler
 * samples it, and counts the JVM's open file descriptors before, while a whole batch is alive, and after.
 * Prints
 *   FDS before=<n> peak=<n> after=<n> threads=<n>
 * Usage: java ThreadChurn [threads=500] [batch=50]
 */
public class ThreadChurn {
    static volatile long sink;

    static int openFds() {
        String[] fds = new File("/proc/self/fd").list();
        return fds == null ? -1 : fds.length;
    }

    static void work() {
        long x = 1, end = System.nanoTime() + 2_000_000;
        while (System.nanoTime() < end) {
            for (int i = 0; i < 1000; i++) x = x * 6364136223846793005L + 1442695040888963407L;
        }
        sink += x;
    }

    public static void main(String[] args) throws Exception {
        int total = args.length > 0 ? Integer.parseInt(args[0]) : 500;
        int batch = args.length > 1 ? Integer.parseInt(args[1]) : 50;
        for (int i = 0; i < 200; i++) work();   // warm up: JIT threads settle, the agent has started
        int before = openFds(), peak = before;
        for (int started = 0; started < total; started += batch) {
            List<Thread> threads = new ArrayList<>();
            CountDownLatch working = new CountDownLatch(batch), release = new CountDownLatch(1);
            for (int i = 0; i < batch; i++) {
                Thread t = new Thread(() -> {
                    work();
                    working.countDown();
                    try {
                        release.await();   // the whole batch is alive at once
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }, "churn-" + (started + i));
                t.start();
                threads.add(t);
            }
            working.await();
            peak = Math.max(peak, openFds());
            release.countDown();
            for (Thread t : threads) t.join();
        }
        int after = openFds();
        System.out.printf("FDS before=%d peak=%d after=%d threads=%d%n", before, peak, after, total);
    }
}
