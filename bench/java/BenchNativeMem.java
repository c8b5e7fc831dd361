import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Cost of native memory profiling on a malloc-heavy JNI workload: each iteration makes 200,000 malloc/free
 * pairs (16 to 4096 bytes) in C (Java_BenchNativeMem_churn in test/native/jni/nativemem.c), called from Java.
 *   java BenchNativeMem work <libnativemem.so> <iterations>   the workload: prints "ITER <ms>" per iteration
 *                                                             (thread CPU time)
 *   java BenchNativeMem <java_home> <libprof.so> <bench classes> <libnativemem.so> <out dir> [rounds]
 *                                                             the harness: rounds of A B0 B1m Bl A (A without the
 *                                                             agent; B0 nativemem at its default interval, every
 *                                                             call; B1m nativemem=1m; Bl nativemem=1m,leak: free hooked),
 *                                                             ratios to the mean of the two A runs, median over
 *                                                             rounds; prints a markdown table
 */
public class BenchNativeMem {
    static final int PAIRS = 200_000;
    static volatile long sink;

    static native long churn(int pairs);

    static long deeper(int depth) {
        return depth > 0 ? deeper(depth - 1) : churn(PAIRS);
    }

    public static void main(String[] args) throws Exception {
        if (args[0].equals("work")) {
            System.load(args[1]);
            var threads = java.lang.management.ManagementFactory.getThreadMXBean();
            int iterations = Integer.parseInt(args[2]);
            for (int i = 0; i < iterations; i++) {
                long t0 = threads.getCurrentThreadCpuTime();
                sink += deeper(8);
                System.out.printf("ITER %.3f%n", (threads.getCurrentThreadCpuTime() - t0) / 1e6);
            }
            return;
        }
        BenchHarness.javaHome = args[0];
        BenchHarness.agent = args[1];
        BenchHarness.classes = args[2];
        String library = args[3];
        BenchHarness.out = Files.createDirectories(Path.of(args[4]));
        int rounds = args.length > 5 ? Integer.parseInt(args[5]) : 3;
        List<String> command = List.of("BenchNativeMem", "work", library, "9");
        String[] sessions = {"nativemem", "nativemem=1m", "nativemem=1m,leak"};
        List<List<Double>> ratios = new ArrayList<>(), times = new ArrayList<>();
        for (int i = 0; i < sessions.length; i++) {
            ratios.add(new ArrayList<>());
            times.add(new ArrayList<>());
        }
        List<Double> baselines = new ArrayList<>();
        for (int r = 0; r < rounds; r++) {
            double before = BenchHarness.steadyMedian(BenchHarness.run(null, command));
            double[] with = new double[sessions.length];
            for (int i = 0; i < sessions.length; i++) {
                Path profile = BenchHarness.out.resolve("nativemem-" + i + "-" + r + ".collapsed");
                with[i] = BenchHarness.steadyMedian(BenchHarness.run("start," + sessions[i] + ",file=" + profile, command));
            }
            double after = BenchHarness.steadyMedian(BenchHarness.run(null, command));
            double baseline = (before + after) / 2;
            baselines.add(baseline);
            for (int i = 0; i < sessions.length; i++) {
                ratios.get(i).add(with[i] / baseline);
                times.get(i).add(with[i]);
            }
            System.out.printf("round %d: without %.1f ms CPU per %d pairs; %s%n", r + 1, baseline, PAIRS,
                    java.util.Arrays.toString(with));
        }
        double base = BenchHarness.median(baselines);
        StringBuilder table = new StringBuilder("| figure | value |\n| --- | --- |\n");
        table.append(String.format("| malloc+free pair without the agent | %.0f ns CPU |%n", base * 1e6 / PAIRS));
        for (int i = 0; i < sessions.length; i++) {
            double ratio = BenchHarness.median(ratios.get(i));
            double perPair = (BenchHarness.median(times.get(i)) - base) * 1e6 / PAIRS;
            table.append(String.format("| %s | x%.2f (%+.0f%%), %+.0f ns CPU per pair |%n", sessions[i], ratio,
                    (ratio - 1) * 100, perPair));
        }
        String report = "# Native memory profiling overhead (" + rounds + " rounds)\n\n" + BenchHarness.machine() + "\n" + table;
        Files.writeString(BenchHarness.out.resolve("nativemem.md"), report);
        System.out.println(report);
    }
}
