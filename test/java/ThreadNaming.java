/**
 * Workloads for thread naming and stack bounds. Usage: java ThreadNaming <mode>
 *   rename  "A-start" burns CPU, becomes "B-renamed" and burns on while the JVM exits; "C-start" burns,
 *           becomes "D-ended" and ends before the profile is written.
 *   evil    a thread named "evil\nmain;x 999" burns CPU.
 *   deep    recursion 200 calls deep, burning CPU at the leaf (deepLeaf).
 */
public class ThreadNaming {
    static volatile long sink;

    static long burn(long cpuNs) {
        return NamedThreads.burn(cpuNs);
    }

    static final java.util.concurrent.CountDownLatch RENAMED_BURNT = new java.util.concurrent.CountDownLatch(1);

    /** Still running when the profile is written: its name must be asked for then. */
    static void renamedWork(long ns) {
        sink += burn(ns);
        Thread.currentThread().setName("B-renamed");
        sink += burn(ns);
        RENAMED_BURNT.countDown();
        while (true) sink += burn(ns);
    }

    static void endedWork(long ns) {
        sink += burn(ns);
        Thread.currentThread().setName("D-ended");
        sink += burn(ns);
    }

    static void evilWork(long ns) { sink += burn(ns); }

    static long deepLeaf(long ns) { return burn(ns); }

    static long descend(int depth, long ns) {
        return depth == 0 ? deepLeaf(ns) : descend(depth - 1, ns) + 1;
    }

    public static void main(String[] args) throws InterruptedException {
        long ns = 600_000_000L;
        switch (args[0]) {
            case "rename" -> {
                Thread ended = new Thread(() -> endedWork(ns / 2), "C-start");
                Thread renamed = new Thread(() -> renamedWork(ns), "A-start");
                renamed.setDaemon(true);
                ended.start();
                renamed.start();
                ended.join();
                RENAMED_BURNT.await();
            }
            case "evil" -> {
                Thread evil = new Thread(() -> evilWork(2 * ns), "evil\nmain;x 999");
                evil.start();
                evil.join();
            }
            case "deep" -> sink += descend(200, 2 * ns);
            default -> throw new IllegalArgumentException(args[0]);
        }
        System.out.println("done");
    }
}
