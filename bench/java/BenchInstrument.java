import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Overhead of method instrumentation (event=BenchInstrument.hot) on a hot method: a few dozen nanoseconds of
 * arithmetic, called from a stack 16 frames deep, 500,000 calls per iteration.
 *   java BenchInstrument work <iterations>      the workload: prints "ITER <ms>" per iteration (thread CPU time)
 *   java BenchInstrument <java_home> <libprof.so> <bench classes> <out dir> [rounds]
 *                                               the harness: rounds of A B1 B100 A (A without the agent, Bn at
 *                                               interval=n), ratio of the steady medians to the mean of the two
 *                                               A runs, median over rounds; prints a markdown table
 */
public class BenchInstrument {
    static final int CALLS = 500_000, DEPTH = 16;
    static volatile long sink;

    static long hot(long x) {
        for (int i = 0; i < 8; i++) x = (x * 6364136223846793005L + 1442695040888963407L) ^ (x >>> 29);
        return x;
    }

    static long iteration(int depth) {
        if (depth > 0) return iteration(depth - 1);
        long x = 1;
        for (int i = 0; i < CALLS; i++) x += hot(x + i);
        return x;
    }

    public static void main(String[] args) throws Exception {
        if (args[0].equals("work")) {
            // CPU time of the calling thread, which does all the recording: on a shared machine wall time
            // mostly measures the other tenants.
            var threads = java.lang.management.ManagementFactory.getThreadMXBean();
            int iterations = Integer.parseInt(args[1]);
            for (int i = 0; i < iterations; i++) {
                long t0 = threads.getCurrentThreadCpuTime();
                sink += iteration(DEPTH);
                System.out.printf("ITER %.3f%n", (threads.getCurrentThreadCpuTime() - t0) / 1e6);
            }
            return;
        }
        BenchHarness.javaHome = args[0];
        BenchHarness.agent = args[1];
        BenchHarness.classes = args[2];
        BenchHarness.out = Files.createDirectories(Path.of(args[3]));
        int rounds = args.length > 4 ? Integer.parseInt(args[4]) : 3;
        List<String> command = List.of("BenchInstrument", "work", "10");
        int[] intervals = {1, 100};
        List<List<Double>> ratios = List.of(new ArrayList<>(), new ArrayList<>());
        List<Double> baselines = new ArrayList<>(), instrumented1 = new ArrayList<>(), instrumented100 = new ArrayList<>();
        for (int r = 0; r < rounds; r++) {
            double before = BenchHarness.steadyMedian(BenchHarness.run(null, command));
            double[] with = new double[intervals.length];
            for (int i = 0; i < intervals.length; i++) {
                Path profile = BenchHarness.out.resolve("instrument-" + intervals[i] + "-" + r + ".collapsed");
                with[i] = BenchHarness.steadyMedian(BenchHarness.run("start,event=BenchInstrument.hot,interval="
                        + intervals[i] + ",file=" + profile, command));
            }
            double after = BenchHarness.steadyMedian(BenchHarness.run(null, command));
            double baseline = (before + after) / 2;
            baselines.add(baseline);
            instrumented1.add(with[0]);
            instrumented100.add(with[1]);
            for (int i = 0; i < intervals.length; i++) ratios.get(i).add(with[i] / baseline);
            System.out.printf("round %d: without %.1f ms, interval=1 %.1f ms, interval=100 %.1f ms CPU per %d calls%n", r + 1,
                    baseline, with[0], with[1], CALLS);
        }
        double base = BenchHarness.median(baselines);
        StringBuilder table = new StringBuilder("| figure | value |\n| --- | --- |\n");
        table.append(String.format("| hot method without the agent | %.1f ns CPU per call |%n", base * 1e6 / CALLS));
        List<List<Double>> times = List.of(instrumented1, instrumented100);
        for (int i = 0; i < intervals.length; i++) {
            double ratio = BenchHarness.median(ratios.get(i));
            double perCall = (BenchHarness.median(times.get(i)) - base) * 1e6 / CALLS;
            table.append(String.format("| instrumented, interval=%d | x%.2f (%+.0f%%), +%.0f ns CPU per call |%n", intervals[i],
                    ratio, (ratio - 1) * 100, perCall));
        }
        String report = "# Method instrumentation overhead (" + rounds + " rounds)\n\n" + BenchHarness.machine() + "\n" + table;
        Files.writeString(BenchHarness.out.resolve("instrument.md"), report);
        System.out.println(report);
    }
}
