import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Wall-clock profiling at scale: BenchIdleThreads (1,000 idle + 2 busy threads) without the
 * profiler, with event=wall at its default interval, and with every thread signalled every round (the
 * idle-thread optimisation off: LIBPROF_TEST_WALL_SIGNAL_ALL=1), rounds alternating so that machine load
 * spreads evenly. Reports the CPU time per unit of work of each as a ratio to no profiler (lower is better;
 * 1.00 = free), medians over the rounds, and writes them to <out>/wall.md.
 * Usage: java BenchWall <java_home> <libprof.so> <bench classes> <out dir> [rounds] [seconds]
 */
public class BenchWall {
    record Config(String name, String agentOptions, boolean signalAll) {}

    public static void main(String[] args) throws Exception {
        String javaHome = args[0], agent = args[1], classes = args[2];
        Path out = Path.of(args[3]);
        int rounds = args.length > 4 ? Integer.parseInt(args[4]) : 3;
        String seconds = args.length > 5 ? args[5] : "8";
        Files.createDirectories(out);
        Path profile = out.resolve("wall-bench.collapsed");
        List<Config> configs = List.of(new Config("no profiler", null, false),
                new Config("event=wall (default 50ms)", "start,event=wall,file=" + profile, false),
                new Config("event=wall, every thread signalled", "start,event=wall,file=" + profile, true));
        List<List<Double>> perUnit = new ArrayList<>();
        for (int c = 0; c < configs.size(); c++) perUnit.add(new ArrayList<>());
        for (int r = 0; r < rounds; r++) {
            for (int c = 0; c < configs.size(); c++) {
                Config cfg = configs.get(c);
                List<String> cmd = new ArrayList<>(List.of(javaHome + "/bin/java", "-Xss256k"));
                if (cfg.agentOptions() != null) cmd.add("-agentpath:" + agent + "=" + cfg.agentOptions());
                cmd.addAll(List.of("-cp", classes, "BenchIdleThreads", "1000", "2", seconds));
                ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
                if (cfg.signalAll()) pb.environment().put("LIBPROF_TEST_WALL_SIGNAL_ALL", "1");
                Process p = pb.start();
                String output = new String(p.getInputStream().readAllBytes());
                p.waitFor();
                Matcher m = Pattern.compile("units=(\\d+) cpu_ns=(\\d+)").matcher(output);
                if (!m.find()) throw new AssertionError(cfg.name() + ": no result in: " + output);
                double units = Double.parseDouble(m.group(1)), cpu = Double.parseDouble(m.group(2));
                perUnit.get(c).add(cpu / units);
                System.out.printf("round %d %-36s units=%.0f cpu=%.2fs cpu/unit=%.1fus%n", r + 1, cfg.name(), units,
                        cpu / 1e9, cpu / units / 1e3);
            }
        }
        double base = median(perUnit.get(0));
        StringBuilder report = new StringBuilder("# Wall-clock profiling, 1,000 idle + 2 busy threads\n\n"
                + "CPU time per unit of work, median of " + rounds + " rounds of " + seconds + " s, as a ratio to "
                + "no profiler (1.00 = no overhead).\n\n| configuration | CPU us/unit | ratio |\n|---|---|---|\n");
        for (int c = 0; c < configs.size(); c++) {
            double v = median(perUnit.get(c));
            report.append(String.format("| %s | %.1f | %.3f |%n", configs.get(c).name(), v / 1e3, v / base));
        }
        System.out.print(report);
        Files.writeString(out.resolve("wall.md"), report.toString());
    }

    static double median(List<Double> xs) {
        List<Double> s = new ArrayList<>(xs);
        s.sort(null);
        int n = s.size();
        return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }
}
