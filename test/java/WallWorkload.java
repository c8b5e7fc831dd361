/*
 * The wall-clock tests' workload, with a known truth: thread "halfsleeper" alternates 40 ms of Thread.sleep
 * and 40 ms of spinning (spin()); thread "blocked" waits for a monitor that main holds all along (its frame
 * blockedOnMonitor()); thread "waiter" waits in Object.wait (waitForever()); thread "parker" parks
 * (parkForever()). Runs for the seconds given (default 4), then releases everything and exits.
 */
import java.util.concurrent.locks.LockSupport;

public class WallWorkload {
    static final Object MONITOR = new Object();
    static final Object WAIT_LOCK = new Object();
    static volatile boolean done;
    static volatile long sink;

    static void spin(long ns) {
        long end = System.nanoTime() + ns;
        long x = 0;
        while (System.nanoTime() < end) x += x * 31 + 7;
        sink = x;
    }

    static void sleepHalf() throws InterruptedException {
        Thread.sleep(40);
    }

    static volatile long sleptNs, spunNs;

    /* Measures its own truth: the time it really spent in each half (sleep overshoots its 40 ms). */
    static void halfSleeper() {
        try {
            while (!done) {
                long t0 = System.nanoTime();
                sleepHalf();
                long t1 = System.nanoTime();
                spin(40_000_000L);
                sleptNs += t1 - t0;
                spunNs += System.nanoTime() - t1;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static void blockedOnMonitor() {
        synchronized (MONITOR) {
            sink++;
        }
    }

    static void waitForever() {
        synchronized (WAIT_LOCK) {
            while (!done) {
                try {
                    WAIT_LOCK.wait();
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    static void parkForever() {
        while (!done) LockSupport.park();
    }

    public static void main(String[] args) throws Exception {
        long seconds = args.length > 0 ? Long.parseLong(args[0]) : 4;
        Thread half = new Thread(WallWorkload::halfSleeper, "halfsleeper");
        Thread blocked = new Thread(WallWorkload::blockedOnMonitor, "blocked");
        Thread waiter = new Thread(WallWorkload::waitForever, "waiter");
        Thread parker = new Thread(WallWorkload::parkForever, "parker");
        synchronized (MONITOR) {
            half.start();
            blocked.start();
            waiter.start();
            parker.start();
            Thread.sleep(seconds * 1000);
            done = true;
        }
        synchronized (WAIT_LOCK) {
            WAIT_LOCK.notifyAll();
        }
        LockSupport.unpark(parker);
        half.join();
        System.out.printf("sleeping_share=%.4f%n", (double) sleptNs / (sleptNs + spunNs));
        System.out.printf("halfsleeper_ns=%d%n", sleptNs + spunNs);   /* its whole time, slept and spun */
        blocked.join();
        waiter.join();
        parker.join();
    }
}
