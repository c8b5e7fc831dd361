import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * Workload for the attach tests: one thread burns CPU in two methods with a known split of its CPU time,
 * 70% in burnSeventy and 30% in burnThirty, in phases of 7 and 3 ms. The phases are whole multiples of the
 * 1 ms interval the tests sample at, so each phase gets its exact share of samples (no aliasing), and they
 * are timed by the thread's own CPU clock, so preemption by other processes does not skew the split.
 * Runs until killed; prints "ready" once the loop runs. With the argument "light" it rests 20 ms after
 * each 10 ms of work, so tests that only need a live, somewhat busy JVM leave the CPU to the share test.
 */
public class AttachTarget {
    static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    static volatile long sink;

    static void burnFor(long cpuNanos) {
        long end = THREADS.getCurrentThreadCpuTime() + cpuNanos;
        long x = sink;
        while (THREADS.getCurrentThreadCpuTime() < end) {
            for (int i = 0; i < 2000; i++) x = x * 6364136223846793005L + 1442695040888963407L;
        }
        sink = x;
    }

    static void burnSeventy() { burnFor(7_000_000L); }

    static void burnThirty() { burnFor(3_000_000L); }

    static void rest(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public static void main(String[] args) throws Exception {
        boolean light = args.length > 0 && args[0].equals("light");
        Thread worker = new Thread(() -> {
            for (;;) {
                burnSeventy();
                burnThirty();
                if (light) rest(20);
            }
        }, "burner");
        worker.setDaemon(true);
        worker.start();
        Thread.sleep(300);
        System.out.println("ready");
        System.out.flush();
        worker.join();
    }
}
