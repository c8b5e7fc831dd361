/*
 * A Java workload with a known shape for the HTML output tests: hot() burns about twice the CPU of
 * cold(), both called through work(), so the flame graph must show FlameWorkload.hot wider than .cold.
 */
public class FlameWorkload {
    static volatile long sink;

    static long spin(long n) {
        long x = 0;
        for (long i = 0; i < n; i++) x = x * 31 + i ^ (x >>> 7);
        return x;
    }

    static void hot() { sink += spin(2_000_000); }

    static void cold() { sink += spin(1_000_000); }

    static void work() {
        hot();
        cold();
    }

    public static void main(String[] args) {
        long seconds = args.length > 0 ? Long.parseLong(args[0]) : 2;
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        while (System.nanoTime() < end) work();
        System.out.println(sink == 42 ? "" : "done");
    }
}
