import java.lang.management.ManagementFactory;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The wall-clock benchmark's workload: 1,000 idle threads (half parked, half in Object.wait)
 * and 2 busy threads doing units of work. After a warm-up it measures, over the given seconds, the units
 * done and the CPU time the whole process used, and prints "units=N cpu_ns=N" (CPU time per unit of work
 * is what BenchWall compares with and without the profiler).
 * Usage: java BenchIdleThreads <idle threads> <busy threads> <seconds>
 */
public class BenchIdleThreads {
    static volatile boolean done, measuring;
    static final AtomicLong units = new AtomicLong();
    static final Object LOCK = new Object();
    static volatile long sink;

    static long unit(long seed) {
        long x = seed;
        for (int i = 0; i < 20_000; i++) x = x * 6364136223846793005L + 1442695040888963407L;
        return x;
    }

    public static void main(String[] args) throws Exception {
        int idle = Integer.parseInt(args[0]), busy = Integer.parseInt(args[1]);
        double seconds = Double.parseDouble(args[2]);
        CountDownLatch ready = new CountDownLatch(idle);
        for (int i = 0; i < idle; i++) {
            boolean park = i % 2 == 0;
            Thread t = new Thread(() -> {
                ready.countDown();
                if (park) {
                    while (!done) LockSupport.park();
                } else {
                    synchronized (LOCK) {
                        while (!done) {
                            try {
                                LOCK.wait();
                            } catch (InterruptedException e) {
                                return;
                            }
                        }
                    }
                }
            }, "idle-" + i);
            t.setDaemon(true);
            t.start();
        }
        ready.await();
        for (int i = 0; i < busy; i++) {
            Thread t = new Thread(() -> {
                long x = 1;
                while (!done) {
                    x = unit(x);
                    if (measuring) units.incrementAndGet();
                }
                sink = x;
            }, "busy-" + i);
            t.setDaemon(true);
            t.start();
        }
        Thread.sleep(2000);   // warm-up: JIT, the profiler's first rounds
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long cpu0 = os.getProcessCpuTime();
        measuring = true;
        Thread.sleep((long) (seconds * 1000));
        measuring = false;
        long cpu1 = os.getProcessCpuTime();
        System.out.println("units=" + units.get() + " cpu_ns=" + (cpu1 - cpu0));
        done = true;
        System.exit(0);
    }
}
