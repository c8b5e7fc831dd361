/**
 * The latency tracing workload (TraceTest.java): on a thread named "slow-caller", TraceWorkload.handle is
 * called ten times from TraceWorkload.serve; the fourth call spins 150 ms in TraceWorkload.slowPart, the
 * others about 1 ms. With "throw", the seventh call throws after 120 ms (caught in serve), which a trace
 * must still time. With "deep", the thread first calls TraceWorkload.recurse 201 deep, the innermost call
 * spinning 120 ms, so that every one of the 201 calls takes at least that. Prints TRUTH lines with the
 * measured durations.
 */
public class TraceWorkload {
    static volatile long sink;

    static void spin(long nanos) {
        long end = System.nanoTime() + nanos;
        long x = 0;
        while (System.nanoTime() < end) x += x * 31 + 7;
        sink = x;
    }

    static void slowPart() {
        spin(150_000_000L);
    }

    static void handle(int i, boolean throwing) {
        if (i == 3) slowPart();
        else if (throwing && i == 6) {
            spin(120_000_000L);
            throw new IllegalStateException("request " + i + " failed");
        } else spin(1_000_000L);
    }

    static void serve(boolean throwing) {
        for (int i = 0; i < 10; i++) {
            long t0 = System.nanoTime();
            try {
                handle(i, throwing);
            } catch (IllegalStateException e) {
                System.out.println("caught " + e.getMessage());
            }
            System.out.println("TRUTH call " + i + " took " + (System.nanoTime() - t0) / 1000 + " us");
        }
    }

    static final int DEEP = 200;

    static void recurse(int n) {
        if (n == 0) spin(120_000_000L);
        else recurse(n - 1);
    }

    /** A hot method for the benchmark: its calls take well under any threshold. */
    static int hot(int x) {
        return x * 31 + (x >>> 3);
    }

    public static void main(String[] args) throws Exception {
        boolean throwing = args.length > 0 && args[0].equals("throw");
        boolean deep = args.length > 0 && args[0].equals("deep");
        // Warm the method up first, so the traced calls below run compiled code as well as interpreted.
        Thread t = new Thread(() -> {
            if (deep) recurse(DEEP);
            serve(throwing);
        }, "slow-caller");
        t.start();
        t.join();
    }
}
