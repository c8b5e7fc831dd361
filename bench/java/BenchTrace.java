/**
 * The cost of trace= for calls under the threshold: one thread calls BenchTrace.work (a few hundred ns of
 * arithmetic) for SECONDS and prints "OPS <calls>"; bench/trace_overhead.sh runs it without the agent and
 * with trace=BenchTrace.work:1ms, which no call reaches, so every traced call takes the fast path.
 * Usage: java BenchTrace SECONDS
 */
public class BenchTrace {
    static volatile long sink;

    static long work(long x) {
        for (int i = 0; i < 64; i++) x = x * 6364136223846793005L + 1442695040888963407L;
        return x;
    }

    public static void main(String[] args) {
        long seconds = Long.parseLong(args[0]);
        long end = System.nanoTime() + seconds * 1_000_000_000L, calls = 0, x = 1;
        while (System.nanoTime() < end) {
            for (int i = 0; i < 1000; i++) x = work(x);
            calls += 1000;
        }
        sink = x;
        System.out.println("OPS " + calls);
    }
}
