import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Workloads with a known truth for allocation and lock profiling (AllocLockTest):
 *   alloc SECONDS  two sites allocating byte[] of one size, site3 three arrays for every one of site1: a 3:1
 *                  byte ratio
 *   live           retainedSite's objects are kept, freedSite's dropped (as many bytes each), then a GC
 *   startup N      the main thread allocates N small arrays in startupSite right after start-up and exits
 *   lock N MS      a holder keeps a monitor for MS ms, N times, while a waiter blocks on it; prints the wait
 *                  the waiter measured itself ("TRUTH waited_ns=...")
 *   park N MS      the same with a ReentrantLock (threads park)
 *   bench SECONDS alloc|lock  four threads allocating, or contending for one monitor (the benchmark);
 *                  prints "OPS n"
 */
public class AllocLockWorkload {
    static volatile Object sink;
    static final List<Object> retained = new ArrayList<>();

    static void site1(int size) {
        sink = new byte[size];
    }

    static void site3(int size) {
        sink = new byte[size];
        sink = new byte[size];
        sink = new byte[size];
    }

    static void alloc(double seconds) {
        long end = System.nanoTime() + (long) (seconds * 1e9);
        long rounds = 0;
        while (System.nanoTime() < end) {
            for (int i = 0; i < 1000; i++) {
                site1(256);
                site3(256);
            }
            rounds++;
        }
        System.out.println("TRUTH rounds=" + rounds);
    }

    static void retainedSite() {
        retained.add(new byte[1000]);
    }

    static void freedSite() {
        sink = new byte[1000];
    }

    static void live() throws Exception {
        for (int i = 0; i < 200_000; i++) {
            retainedSite();
            freedSite();
        }
        sink = null;
        System.gc();
        Thread.sleep(100);
        System.gc();
        System.out.println("TRUTH retained=" + retained.size());
    }

    static final Object monitor = new Monitor();

    static final class Monitor {}

    static long waitedNs;

    static void waiterEnters() {
        long start = System.nanoTime();
        synchronized (monitor) {
            waitedNs += System.nanoTime() - start;
        }
    }

    static void lock(int rounds, int ms) throws Exception {
        for (int r = 0; r < rounds; r++) {
            Thread holder = new Thread(() -> {
                synchronized (monitor) {
                    sleepMs(ms);
                }
            }, "holder");
            holder.start();
            while (holder.getState() != Thread.State.TIMED_WAITING && holder.isAlive()) Thread.onSpinWait();   // a short hold may be over already
            Thread waiter = new Thread(AllocLockWorkload::waiterEnters, "waiter");
            waiter.start();
            waiter.join();
            holder.join();
        }
        System.out.println("TRUTH waited_ns=" + waitedNs);
    }

    static final ReentrantLock reentrant = new ReentrantLock();

    static void waiterParks() {
        long start = System.nanoTime();
        reentrant.lock();
        try {
            waitedNs += System.nanoTime() - start;
        } finally {
            reentrant.unlock();
        }
    }

    static void park(int rounds, int ms) throws Exception {
        for (int r = 0; r < rounds; r++) {
            Thread holder = new Thread(() -> {
                reentrant.lock();
                try {
                    sleepMs(ms);
                } finally {
                    reentrant.unlock();
                }
            }, "holder");
            holder.start();
            while (holder.getState() != Thread.State.TIMED_WAITING && holder.isAlive()) Thread.onSpinWait();   // a short hold may be over already
            Thread waiter = new Thread(AllocLockWorkload::waiterParks, "waiter");
            waiter.start();
            waiter.join();
            holder.join();
        }
        System.out.println("TRUTH waited_ns=" + waitedNs);
    }

    /** Threads that wait for work or for an event, not for a lock, for about 'ms': an idle pool's worker (its
     *  queue), a Condition.await and a CountDownLatch.await; then park(2, ms / 2) for a real lock wait. */
    static void idle(int ms) throws Exception {
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newCachedThreadPool();
        pool.submit(() -> {}).get();   /* a worker, now idle on its SynchronousQueue */
        java.util.concurrent.CountDownLatch latch = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.locks.ReentrantLock l = new java.util.concurrent.locks.ReentrantLock();
        java.util.concurrent.locks.Condition ready = l.newCondition();
        Thread latchWaiter = new Thread(() -> {
            try {
                latch.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "latch-waiter");
        Thread conditionWaiter = new Thread(() -> {
            l.lock();
            try {
                ready.await(ms, java.util.concurrent.TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                l.unlock();
            }
        }, "condition-waiter");
        latchWaiter.start();
        conditionWaiter.start();
        sleepMs(ms);
        latch.countDown();
        latchWaiter.join();
        conditionWaiter.join();
        pool.shutdown();
        park(2, ms / 2);
    }

    static void sleepMs(int ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static long counter;

    /** Four threads allocating (kind "alloc") or taking one monitor in turns ("lock"). */
    static void bench(double seconds, String kind) throws Exception {
        boolean allocating = kind.equals("alloc");
        long end = System.nanoTime() + (long) (seconds * 1e9);
        long[] ops = new long[4];
        Thread[] threads = new Thread[4];
        for (int t = 0; t < threads.length; t++) {
            int me = t;
            threads[t] = new Thread(() -> {
                long n = 0;
                while (System.nanoTime() < end) {
                    for (int i = 0; i < 100; i++) {
                        if (allocating) sink = new Object[8 + (i & 7)];
                        else synchronized (monitor) {
                            counter++;
                            if ((i & 15) == 0) sink = new StringBuilder().append(counter).toString();
                        }
                    }
                    n += 100;
                }
                ops[me] = n;
            });
            threads[t].start();
        }
        long total = 0;
        for (int t = 0; t < threads.length; t++) {
            threads[t].join();
            total += ops[t];
        }
        System.out.println("OPS " + total);
    }

    static void startupSite() {
        sink = new int[4];
    }

    static void startup(int n) {
        for (int i = 0; i < n; i++) startupSite();
        System.out.println("TRUTH objects=" + n);
    }

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "startup" -> startup(Integer.parseInt(args[1]));
            case "alloc" -> alloc(Double.parseDouble(args[1]));
            case "live" -> live();
            case "lock" -> lock(Integer.parseInt(args[1]), Integer.parseInt(args[2]));
            case "park" -> park(Integer.parseInt(args[1]), Integer.parseInt(args[2]));
            case "idle" -> idle(Integer.parseInt(args[1]));
            case "bench" -> bench(Double.parseDouble(args[1]), args[2]);
            default -> throw new IllegalArgumentException(args[0]);
        }
    }
}
