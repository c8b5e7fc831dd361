/*
 * The wall engine's bound on work per interval, with a known truth: N threads ("sleeper-i") sleep in
 * Thread.sleep all along, one thread ("busy") spins in busySpin(); runs for the seconds given, then prints
 * how long the busy thread ran (busy_ns) and the process's whole life so far (life_ns, from the JVM's start).
 * Usage: java WallManyThreads <sleepers> <seconds>
 */
import java.lang.management.ManagementFactory;
import java.util.concurrent.CountDownLatch;

public class WallManyThreads {
    static volatile boolean done;
    static volatile long sink;

    static void busySpin() {
        long x = 0;
        while (!done) x += x * 31 + 7;
        sink = x;
    }

    static void sleepLong() {
        try {
            while (!done) Thread.sleep(100_000);
        } catch (InterruptedException e) {
            // woken at the end
        }
    }

    public static void main(String[] args) throws Exception {
        int sleepers = Integer.parseInt(args[0]);
        long seconds = Long.parseLong(args[1]);
        Thread[] threads = new Thread[sleepers];
        CountDownLatch up = new CountDownLatch(sleepers);
        for (int i = 0; i < sleepers; i++) {
            threads[i] = new Thread(null, () -> { up.countDown(); sleepLong(); }, "sleeper-" + i, 64 * 1024);
            threads[i].setDaemon(true);
            threads[i].start();
        }
        up.await();
        long t0 = System.nanoTime();
        Thread busy = new Thread(WallManyThreads::busySpin, "busy");
        busy.start();
        Thread.sleep(seconds * 1000);
        done = true;
        busy.join();
        long busyNs = System.nanoTime() - t0;
        for (Thread t : threads) t.interrupt();
        System.out.printf("busy_ns=%d%n", busyNs);
        System.out.printf("life_ns=%d%n", ManagementFactory.getRuntimeMXBean().getUptime() * 1_000_000L);
    }
}
