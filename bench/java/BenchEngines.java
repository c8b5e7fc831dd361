import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Every engine and the common combinations, libprof beside async-profiler, in one run.
 *
 * Each case runs BenchEngineWork (one worker whose units allocate, deflate through zlib, contend a monitor
 * and call the instrumented method, beside N sleeping threads) in three JVMs started at once: without a
 * profiler, with libprof and with async-profiler, the same agent options for both (explicit intervals, so
 * neither runs on a default the other lacks). The three run side by side so that the machine's load, which
 * changes from second to second on a shared machine, weighs on all three alike; their start order rotates
 * from round to round and the cases' order too. Overhead = process CPU time per unit of work (the first
 * third of the units left out as warm-up) over the unprofiled JVM's in the same round; reported as the
 * median (min..max) over rounds, with the ratio of libprof's median overhead to async-profiler's and, round
 * by round, the ratio of their CPU per unit (its median and spread: < 1 is libprof cheaper). Beside the cost,
 * what each took: samples (collapsed output: the sum of its counts; JFR: the sampling events in `jfr summary`),
 * samples per second of the JVM's life, and threads covered (distinct thread frames), so being cheaper by
 * sampling less shows. Memory: the JVM's VmRSS after the last unit over the unprofiled one's.
 * Attach: the same three JVMs warm (6 units done, of twice as many), then `jprof start` / `asprof start` on them: the time the
 * command took, and the overhead over the units after it returned.
 *
 * Usage: java BenchEngines <java_home> <libprof.so> <bench classes> <out dir> <async-profiler home> [jprof]
 * System properties: engines.rounds (default 3), engines.units (per JVM, default 30), engines.cases (names,
 * comma-separated; default all), engines.attach (true).
 */
public class BenchEngines {
    /** One configuration, given to both profilers; sleepers: the workload's sleeping threads. */
    record Case(String name, int sleepers, String options, boolean jfr) {}

    enum Side { NONE, LIBPROF, PEER }

    /** What one JVM measured. */
    record Run(double cpuPerUnit, long samples, int threads, long rssKb, double seconds, double startMs, String detail) {}

    static final List<Case> CASES = List.of(
            new Case("cpu 10ms", 10, "event=cpu,interval=10ms", false),
            new Case("wall 20ms, 10 threads", 10, "event=wall,interval=20ms", false),
            new Case("wall 20ms, 1000 threads", 1000, "event=wall,interval=20ms", false),
            new Case("alloc 512k", 10, "alloc=512k", false),
            new Case("alloc 512k, live", 10, "alloc=512k,live", false),
            new Case("lock 10us", 10, "lock=10us", false),
            new Case("nativemem 0 (every call)", 10, "nativemem=0", false),
            new Case("nativemem 64k", 10, "nativemem=64k", false),
            new Case("nativelock 10us", 10, "nativelock=10us", false),
            new Case("instrument BenchEngineWork.part", 10, "event=BenchEngineWork.part", false),
            new Case("cpu 10ms + wall 20ms + alloc 512k + lock 10us, 300 threads", 300,
                    "event=cpu,interval=10ms,wall=20ms,alloc=512k,lock=10us", true));

    /** Attach cases: asprof/jprof flags, the same for both. */
    static final List<Case> ATTACH = List.of(
            new Case("attach: cpu 10ms", 10, "-e cpu -i 10ms -t", false),
            new Case("attach: cpu 10ms + wall 20ms + alloc 512k + lock 10us, 300 threads", 300,
                    "-e cpu -i 10ms --wall 20ms --alloc 512k --lock 10us", true));

    static final List<String> JFR_SAMPLE_EVENTS = List.of("jdk.ExecutionSample", "jdk.ObjectAllocationSample",
            "jdk.ObjectAllocationInNewTLAB", "jdk.ObjectAllocationOutsideTLAB", "jdk.JavaMonitorEnter", "jdk.ThreadPark",
            "profiler.WallClockSample", "profiler.Malloc", "profiler.NativeLock");

    static String javaHome, libprof, classes, peerHome, jprof, clock;
    static Path out;
    static int units, runCounter;

    public static void main(String[] args) throws Exception {
        if (args.length < 5) {
            System.err.println("usage: java BenchEngines <java_home> <libprof.so> <bench classes> <out dir>"
                    + " <async-profiler home> [jprof]");
            System.exit(2);
        }
        javaHome = args[0];
        libprof = args[1];
        classes = args[2];
        out = Files.createDirectories(Path.of(args[3]));
        peerHome = args[4];
        if (!Files.isRegularFile(Path.of(peerHome, "lib", "libasyncProfiler.so"))) {
            System.err.println("async-profiler home " + peerHome + ": no lib/libasyncProfiler.so (expected the directory"
                    + " holding lib/ and bin/ of an async-profiler build)");
            System.exit(2);
        }
        BenchHarness.javaHome = javaHome;
        jprof = args.length > 5 ? args[5] : Path.of(libprof).getParent().resolveSibling("bin/jprof").toString();
        Path clockLib = Path.of(libprof).resolveSibling("libbench_clock.so");
        if (Files.isRegularFile(clockLib)) clock = clockLib.toString();
        int rounds = Integer.getInteger("engines.rounds", 3);
        units = Integer.getInteger("engines.units", 30);
        // Interrupted (Ctrl-C): the workloads it started go with it.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> ProcessHandle.current().children().forEach(ProcessHandle::destroy)));
        boolean attach = Boolean.parseBoolean(System.getProperty("engines.attach", "true"));
        List<Case> cases = select(CASES), attachCases = attach ? select(ATTACH) : List.of();
        System.out.println("BenchEngines: " + rounds + " rounds x " + (cases.size() + attachCases.size()) + " cases, "
                + units + " units per JVM, three JVMs at once; async-profiler " + peerHome);

        long started = System.nanoTime();
        List<String> loads = new ArrayList<>();
        Map<Case, Map<Side, List<Run>>> results = new LinkedHashMap<>();
        for (int round = 0; round < rounds; round++) {
            loads.add(loadAverage());
            List<Case> order = new ArrayList<>(cases);
            order.addAll(attachCases);
            Collections.rotate(order, round * 3);
            for (Case c : order) {
                List<Side> sides = new ArrayList<>(List.of(Side.NONE, Side.LIBPROF, Side.PEER));
                Collections.rotate(sides, round + order.indexOf(c));
                Map<Side, Run> r = attachCases.contains(c) ? attachRound(c, sides) : round(c, sides);
                for (Side s : Side.values())
                    results.computeIfAbsent(c, k -> new LinkedHashMap<>()).computeIfAbsent(s, k -> new ArrayList<>())
                            .add(r.get(s));
                System.out.printf("round %d %-60s none %.2f ms/unit | libprof %.2f (%d samples) | async-profiler %.2f"
                        + " (%d samples)%n", round + 1, c.name(), r.get(Side.NONE).cpuPerUnit(),
                        r.get(Side.LIBPROF).cpuPerUnit(), r.get(Side.LIBPROF).samples(), r.get(Side.PEER).cpuPerUnit(),
                        r.get(Side.PEER).samples());
            }
        }
        loads.add(loadAverage());
        StringBuilder text = new StringBuilder("# Every engine: libprof and async-profiler side by side\n\n")
                .append(BenchHarness.machine()).append("async-profiler: ").append(peerHome).append("\n")
                .append("Load average (1, 5, 15 min) at the start of each round and at the end: ")
                .append(String.join(" | ", loads)).append("\n\n")
                .append(rounds).append(" rounds, three JVMs at once per case (none, libprof, async-profiler), ")
                .append(units).append(" units each, the first third left out; ").append(clock != null
                        ? "process CPU clock in ns" : "process CPU clock in 10 ms steps (no libbench_clock.so)")
                .append(". Overhead: CPU per unit over the unprofiled JVM's, median (min..max). CPU ratio:"
                        + " libprof's CPU per unit over async-profiler's, round by round. Samples: median per run"
                        + " (per second of the JVM's life). Memory: VmRSS after the last unit over the unprofiled JVM's.\n\n")
                .append("| case | libprof overhead | async-profiler overhead | overhead ratio | CPU ratio | at most 1.0 |"
                        + " libprof samples (/s), threads | async-profiler samples (/s), threads | memory libprof |"
                        + " memory async-profiler | start (attach) libprof / async-profiler |\n")
                .append("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
        for (var e : results.entrySet()) text.append(row(e.getKey(), e.getValue())).append("\n");
        text.append(String.format("%nTotal time: %.0f s%n", (System.nanoTime() - started) / 1e9));
        Files.writeString(out.resolve("engines.md"), text);
        System.out.println(text);
    }

    static List<Case> select(List<Case> all) {
        String names = System.getProperty("engines.cases");
        if (names == null) return all;
        List<Case> picked = new ArrayList<>();
        for (Case c : all)
            for (String n : names.split(","))
                if (!n.isBlank() && c.name().startsWith(n.strip())) picked.add(c);
        return picked;
    }

    // ---- one round of a case ----------------------------------------------------------------------

    static List<String> javaCommand(Case c, Side side, Path profile, boolean wait) {
        List<String> cmd = new ArrayList<>(List.of(javaHome + "/bin/java", "-Xms64m", "-Xmx64m", "-XX:+AlwaysPreTouch",
                "-Xss512k"));
        if (clock != null) cmd.add("-Dbench.clock=" + clock);
        if (profile != null) {
            String options = "start," + c.options() + ",threads,file=" + profile;
            cmd.add(side == Side.LIBPROF ? "-agentpath:" + libprof + "=" + options + ",quiet,loglevel=warn"
                    : "-agentpath:" + peerHome + "/lib/libasyncProfiler.so=" + options);
        }
        // Attached JVMs run twice the units: the first ones go by before the profiler has started.
        cmd.addAll(List.of("-cp", classes, "BenchEngineWork", String.valueOf(c.sleepers()), String.valueOf(wait ? 2 * units : units)));
        if (wait) cmd.add("wait");
        return cmd;
    }

    static Path profilePath(Case c, Side side, int id) {
        return out.resolve("engines-" + id + "-" + side.name().toLowerCase() + (c.jfr() ? ".jfr" : ".collapsed"));
    }

    static Map<Side, Run> round(Case c, List<Side> order) throws Exception {
        int id = ++runCounter;
        Map<Side, Process> procs = new LinkedHashMap<>();
        Map<Side, Long> starts = new LinkedHashMap<>();
        for (Side s : order) {
            Path profile = s == Side.NONE ? null : profilePath(c, s, id);
            if (profile != null) Files.deleteIfExists(profile);
            Path log = out.resolve("engines-" + id + "-" + s.name().toLowerCase() + ".out");
            starts.put(s, System.nanoTime());
            procs.put(s, new ProcessBuilder(javaCommand(c, s, profile, false)).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).start());
        }
        Map<Side, Run> runs = new LinkedHashMap<>();
        for (Side s : Side.values()) {
            Process p = procs.get(s);
            if (!p.waitFor(600, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException(c.name() + " " + s + ": timed out");
            }
            double seconds = (System.nanoTime() - starts.get(s)) / 1e9;
            String output = Files.readString(out.resolve("engines-" + id + "-" + s.name().toLowerCase() + ".out"));
            if (p.exitValue() != 0) throw new IllegalStateException(c.name() + " " + s + ": exit " + p.exitValue() + "\n" + output);
            runs.put(s, measure(c, s, output, s == Side.NONE ? null : profilePath(c, s, id), seconds, 0, Double.NaN));
        }
        return runs;
    }

    /** The JVMs start unprofiled; once each has done 10 units the profiler is started in it by its own tool. */
    static Map<Side, Run> attachRound(Case c, List<Side> order) throws Exception {
        int id = ++runCounter;
        Map<Side, Process> procs = new LinkedHashMap<>();
        Map<Side, List<String>> lines = new LinkedHashMap<>();
        Map<Side, Long> starts = new LinkedHashMap<>();
        for (Side s : order) {
            starts.put(s, System.nanoTime());
            Process p = new ProcessBuilder(javaCommand(c, Side.NONE, null, true)).redirectErrorStream(true).start();
            procs.put(s, p);
            List<String> sink = Collections.synchronizedList(new ArrayList<>());
            lines.put(s, sink);
            Thread reader = new Thread(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream()))) {
                    for (String l; (l = r.readLine()) != null; ) sink.add(l);
                } catch (IOException e) {
                    sink.add("READ FAILED " + e);
                }
            });
            reader.setDaemon(true);
            reader.start();
        }
        Map<Side, Integer> attachedAt = new LinkedHashMap<>();
        Map<Side, Double> startMs = new LinkedHashMap<>();
        Set<Side> pending = new HashSet<>(List.of(Side.LIBPROF, Side.PEER));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(300);
        while (!pending.isEmpty() && System.nanoTime() < deadline) {
            for (Side s : List.copyOf(pending)) {
                int done = iterations(lines.get(s));
                if (done < 6) continue;
                List<String> cmd = new ArrayList<>(List.of(s == Side.LIBPROF ? jprof : peerHome + "/bin/asprof", "start"));
                cmd.addAll(List.of(c.options().split(" ")));
                // The output named at start too: async-profiler takes several events into JFR only, chosen then.
                Path profile = profilePath(c, s, id);
                Files.deleteIfExists(profile);
                cmd.addAll(List.of("-f", profile.toString()));
                cmd.add(String.valueOf(procs.get(s).pid()));
                long t0 = System.nanoTime();
                String said = tool(cmd, out.resolve("engines-" + id + "-" + s.name().toLowerCase() + "-start.out"));
                startMs.put(s, (System.nanoTime() - t0) / 1e6);
                attachedAt.put(s, iterations(lines.get(s)));
                System.out.printf("  %s start: %.0f ms%s%n", s, startMs.get(s), said.isBlank() ? "" : ": " + said.strip());
                pending.remove(s);
            }
            Thread.sleep(20);
        }
        Map<Side, Run> runs = new LinkedHashMap<>();
        for (Side s : Side.values()) {
            Process p = procs.get(s);
            while (!text(lines.get(s)).contains("DONE") && p.isAlive()) Thread.sleep(50);
            double seconds = (System.nanoTime() - starts.get(s)) / 1e9;
            Path profile = s == Side.NONE ? null : profilePath(c, s, id);
            if (profile != null) {
                List<String> cmd = new ArrayList<>(List.of(s == Side.LIBPROF ? jprof : peerHome + "/bin/asprof", "stop",
                        "-f", profile.toString(), String.valueOf(p.pid())));
                tool(cmd, out.resolve("engines-" + id + "-" + s.name().toLowerCase() + "-stop.out"));
            }
            try (OutputStream in = p.getOutputStream()) {
                in.close();
            }
            if (!p.waitFor(120, TimeUnit.SECONDS)) p.destroyForcibly();
            String output = text(lines.get(s));
            Files.writeString(out.resolve("engines-" + id + "-" + s.name().toLowerCase() + ".out"), output);
            // The unprofiled JVM is measured over the units the later of the two profiled ones was profiled for.
            int from = s == Side.NONE ? Collections.max(attachedAt.values()) : attachedAt.get(s);
            runs.put(s, measure(c, s, output, profile, seconds, from + 2, s == Side.NONE ? Double.NaN : startMs.get(s)));
        }
        return runs;
    }

    /** The lines so far (a reader thread appends to them). */
    static String text(List<String> lines) {
        synchronized (lines) {
            return String.join("\n", lines);
        }
    }

    static int iterations(List<String> lines) {
        synchronized (lines) {
            int n = 0;
            for (String l : lines) if (l.startsWith("ITER ")) n++;
            return n;
        }
    }

    static String tool(List<String> cmd, Path log) throws Exception {
        return BenchHarness.exec(cmd, log);
    }

    // ---- what a run measured ----------------------------------------------------------------------

    static Run measure(Case c, Side s, String output, Path profile, double seconds, int firstUnit, double startMs)
            throws Exception {
        List<Double> cpu = new ArrayList<>();
        Matcher m = Pattern.compile("ITER ([0-9.]+) CPU ([0-9.]+)").matcher(output);
        while (m.find()) cpu.add(Double.parseDouble(m.group(2)));
        int from = Math.max(firstUnit, cpu.size() / 3);
        if (cpu.size() - from < 3) throw new IllegalStateException(c.name() + " " + s + ": too few units:\n" + output);
        double perUnit = cpu.subList(from, cpu.size()).stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
        Matcher rss = Pattern.compile("RSS_KB (\\d+)").matcher(output);
        long rssKb = rss.find() ? Long.parseLong(rss.group(1)) : -1;
        if (profile == null) return new Run(perUnit, 0, 0, rssKb, seconds, startMs, "");
        if (!Files.isRegularFile(profile)) throw new IllegalStateException(c.name() + " " + s + ": no profile " + profile);
        if (c.jfr()) {
            String summary = new String(new ProcessBuilder(javaHome + "/bin/jfr", "summary", profile.toString())
                    .redirectErrorStream(true).start().getInputStream().readAllBytes());
            long samples = 0;
            Map<String, Long> byType = new LinkedHashMap<>();
            for (String line : summary.split("\n")) {
                String[] f = line.strip().split("\\s+");
                if (f.length >= 2 && JFR_SAMPLE_EVENTS.contains(f[0]) && f[1].matches("\\d+")) {
                    samples += Long.parseLong(f[1]);
                    byType.put(f[0].replaceFirst("^(jdk|profiler)\\.", ""), Long.parseLong(f[1]));
                }
            }
            return new Run(perUnit, samples, -1, rssKb, seconds, startMs, byType.toString());
        }
        long samples = 0;
        Set<String> threads = new HashSet<>();
        for (String line : Files.readAllLines(profile)) {
            int space = line.lastIndexOf(' ');
            if (space < 0 || line.startsWith("[dropped")) continue;
            try {
                samples += Long.parseLong(line.substring(space + 1));
            } catch (NumberFormatException e) {
                continue;
            }
            int end = line.indexOf(';');
            String root = end < 0 ? line.substring(0, space) : line.substring(0, end);
            if (root.startsWith("[") && root.contains("tid=")) threads.add(root);
        }
        return new Run(perUnit, samples, threads.size(), rssKb, seconds, startMs, "");
    }

    // ---- the table --------------------------------------------------------------------------------

    static String row(Case c, Map<Side, List<Run>> runs) {
        List<Run> none = runs.get(Side.NONE), lp = runs.get(Side.LIBPROF), ap = runs.get(Side.PEER);
        List<Double> lpOver = new ArrayList<>(), apOver = new ArrayList<>(), cpuRatio = new ArrayList<>();
        for (int r = 0; r < none.size(); r++) {
            lpOver.add((lp.get(r).cpuPerUnit() / none.get(r).cpuPerUnit() - 1) * 100);
            apOver.add((ap.get(r).cpuPerUnit() / none.get(r).cpuPerUnit() - 1) * 100);
            cpuRatio.add(lp.get(r).cpuPerUnit() / ap.get(r).cpuPerUnit());
        }
        double lpMed = median(lpOver), apMed = median(apOver);
        String overRatio = apMed <= 0 ? "n/a (async-profiler's <= 0)" : lpMed <= 0 ? "n/a (libprof's <= 0)"
                : String.format("%.2f", lpMed / apMed);
        boolean atMost = lpMed <= apMed;
        return "| " + c.name() + " | " + spread(lpOver, "%+.1f") + " % | " + spread(apOver, "%+.1f") + " % | " + overRatio
                + " | " + spread(cpuRatio, "%.3f") + " | " + (atMost ? "yes" : "no") + " | " + samples(lp) + " | "
                + samples(ap) + " | " + memory(lp, none) + " | " + memory(ap, none) + " | " + starts(lp, ap) + " |";
    }

    static String samples(List<Run> runs) {
        double n = median(runs.stream().map(r -> (double) r.samples()).toList());
        double perSecond = median(runs.stream().map(r -> r.samples() / r.seconds()).toList());
        int threads = (int) median(runs.stream().map(r -> (double) r.threads()).toList());
        String detail = runs.get(runs.size() - 1).detail();
        return String.format("%.0f (%.0f/s)", n, perSecond) + (threads >= 0 ? ", " + threads + " threads" : "")
                + (detail.isEmpty() ? "" : " " + detail.replace("|", "/"));
    }

    static String memory(List<Run> runs, List<Run> none) {
        List<Double> xs = new ArrayList<>();
        for (int r = 0; r < runs.size(); r++)
            if (runs.get(r).rssKb() > 0 && none.get(r).rssKb() > 0) xs.add((runs.get(r).rssKb() - none.get(r).rssKb()) / 1024.0);
        return spread(xs, "%+.1f") + " MB";
    }

    static String starts(List<Run> lp, List<Run> ap) {
        if (Double.isNaN(lp.get(0).startMs())) return "-";
        return spread(lp.stream().map(Run::startMs).toList(), "%.0f") + " / " + spread(ap.stream().map(Run::startMs).toList(), "%.0f")
                + " ms";
    }

    static String spread(List<Double> xs, String format) {
        return BenchPeer.spread(xs, format);
    }

    static double median(List<Double> xs) {
        return BenchHarness.median(xs);
    }

    static String loadAverage() throws IOException {
        return BenchPeer.loadAverage();
    }
}
