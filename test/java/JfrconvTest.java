import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Integration tests of jfrconv on recordings made by the JDK itself (-XX:StartFlightRecording, jcmd
 * JFR.dump) on the JDK under test. Usage (from ctest):
 *   java JfrconvTest <test> <java_home of the target JVM> <libprof.so> <jfrconv> <workload classpath> <work dir> [recording]
 * Reuses IntegrationTest's helpers (check, readCollapsed, sumContaining).
 */
public class JfrconvTest {
    static String javaHome, agent, jfrconv, classes;
    static Path work;

    record Result(int exit, String out, String err) {}

    /** The start of every driver given PROF_JFRCONV_ARGS (test/java/tests.cmake: test java_home libprof.so
     *  jfrconv classes work_dir ...): jfrconv's path kept here, the rest IntegrationTest's, and this class's
     *  fields set before 'body' runs the test, for the drivers that convert through it. */
    static void runWithJfrconv(String[] args, IntegrationTest.TestBody body) throws Exception {
        jfrconv = args[3];
        String[] common = {args[0], args[1], args[2], args[4], args[5]};
        IntegrationTest.runMain(common, test -> {
            javaHome = IntegrationTest.javaHome;
            agent = IntegrationTest.agent;
            classes = IntegrationTest.classes;
            work = IntegrationTest.work;
            body.run(test);
        });
    }

    /** Arguments: test java_home libprof.so jfrconv classes work_dir [bad input sample]. */
    public static void main(String[] args) throws Exception {
        runWithJfrconv(args, test -> {
            switch (test) {
                case "jdk_recording" -> jdkRecording();
                case "bad_input" -> badInput(Path.of(args[6]));
                case "roundtrip" -> roundTrip();
                case "cpu_time_sample" -> cpuTimeSample();
                case "shaping" -> shaping();
                case "diff_jfr" -> diffJfr();
                default -> throw new IllegalArgumentException("unknown test " + test);
            }
        });
    }

    static void check(boolean condition, String message) {
        IntegrationTest.check(condition, message);
    }

    /** Runs a command with a time limit (a hang fails the test), capturing its output. */
    static Result run(List<String> cmd) throws IOException, InterruptedException {
        Path out = Files.createTempFile(work, "out", ".txt"), err = Files.createTempFile(work, "err", ".txt");
        Process p = new ProcessBuilder(cmd).directory(work.toFile()).redirectOutput(out.toFile())
                .redirectError(err.toFile()).start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("did not finish in 120 s: " + cmd);
        }
        Result r = new Result(p.exitValue(), Files.readString(out), Files.readString(err));
        Files.delete(out);
        Files.delete(err);
        System.out.println("$ " + String.join(" ", cmd) + "\n  exit " + r.exit() + "\n  stderr: "
                + r.err().strip().replace("\n", "\n          "));
        return r;
    }

    static Result jfrconv(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(jfrconv));
        cmd.addAll(List.of(args));
        return run(cmd);
    }

    /** Converts with the given options to collapsed stacks: the output file. */
    static Path convert(String name, String... args) throws IOException, InterruptedException {
        Path out = work.resolve(name + ".collapsed");
        Files.deleteIfExists(out);
        List<String> all = new ArrayList<>(List.of(args));
        all.add(out.toString());
        Result r = jfrconv(all.toArray(new String[0]));
        check(r.exit() == 0, "jfrconv failed (" + r.exit() + "): " + r.err());
        return out;
    }

    /** Converts with the given options to collapsed stacks and reads them. */
    static Map<String, Long> collapsed(String name, String... args) throws IOException, InterruptedException {
        return IntegrationTest.readCollapsed(convert(name, args));
    }

    /** The samples a conversion keeps (0 for an empty output). */
    static long count(String name, String... args) throws IOException, InterruptedException {
        Path out = convert(name, args);
        return Files.readString(out).isEmpty() ? 0 : sum(IntegrationTest.readCollapsed(out));
    }

    static long sum(Map<String, Long> stacks) {
        return IntegrationTest.sum(stacks);
    }

    static String leaf(String stack) {
        return stack.substring(stack.lastIndexOf(';') + 1);
    }

    static Map<String, Long> leaves(Map<String, Long> stacks) {
        Map<String, Long> m = new HashMap<>();
        stacks.forEach((s, n) -> m.merge(leaf(s), n, Long::sum));
        return m;
    }

    static String hottest(Map<String, Long> counts) {
        return counts.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
    }

    /** Leaf frame -> count of jdk.ExecutionSample events as the JDK's own jfr tool prints them. */
    static Map<String, Long> jfrToolLeaves(Path recording) throws IOException, InterruptedException {
        return jfrToolLeaves(recording, "jdk.ExecutionSample");
    }

    static Map<String, Long> jfrToolLeaves(Path recording, String event) throws IOException, InterruptedException {
        Result r = run(List.of(javaHome + "/bin/jfr", "print", "--events", event, "--stack-depth", "1",
                recording.toString()));
        check(r.exit() == 0, "jfr print failed: " + r.err());
        Map<String, Long> m = new HashMap<>();
        Pattern frame = Pattern.compile("stackTrace = \\[\\s*\\n\\s+([^\\s(]+)\\(");
        Matcher matcher = frame.matcher(r.out());
        while (matcher.find()) m.merge(matcher.group(1), 1L, Long::sum);
        check(!m.isEmpty(), "jfr print showed no " + event + " stacks");
        return m;
    }

    /** JDK 25's CPU-time sampler (jdk.CPUTimeSample, JEP 509): its samples converted one for one, each leaf as
     *  the JDK's jfr tool prints it. A JDK without the event (17) records none: the case says so and stops. */
    static void cpuTimeSample() throws Exception {
        Path rec = work.resolve("cputime.jfr");
        Files.deleteIfExists(rec);
        Result r = run(List.of(javaHome + "/bin/java", "-XX:StartFlightRecording=filename=" + rec
                + ",settings=none,+jdk.CPUTimeSample#enabled=true,+jdk.CPUTimeSample#throttle=2ms",
                "-cp", classes, "Burn7525", "2"));
        Result summary = Files.exists(rec) ? run(List.of(javaHome + "/bin/jfr", "summary", rec.toString())) : r;
        if (!summary.out().contains("jdk.CPUTimeSample ")) {
            System.out.println("this JDK records no jdk.CPUTimeSample events (JDK 25+ on Linux only): nothing to convert");
            return;
        }
        check(r.exit() == 0, "the workload failed: " + r.err());
        Map<String, Long> ours = dotted(leaves(collapsed("cputime", rec.toString()))), tool = jfrToolLeaves(rec, "jdk.CPUTimeSample");
        System.out.printf("jdk.CPUTimeSample: %d converted, %d in jfr print%n", sum(ours), sum(tool));
        check(sum(ours) == sum(tool) && sum(ours) > 20, "jdk.CPUTimeSample counts differ: ours " + sum(ours) + " jfr " + sum(tool));
        check(hottest(ours).equals("Burn7525.spin"), "hottest CPU-time leaf is " + hottest(ours) + ", not Burn7525.spin");
    }

    /** Leaf "class.method:LINE" -> count of jdk.ExecutionSample events, as the jfr tool prints them. */
    static Map<String, Long> jfrToolLeafLines(Path recording) throws IOException, InterruptedException {
        Result r = run(List.of(javaHome + "/bin/jfr", "print", "--events", "jdk.ExecutionSample", "--stack-depth", "1",
                recording.toString()));
        check(r.exit() == 0, "jfr print failed: " + r.err());
        Map<String, Long> m = new HashMap<>();
        // A frame without a line (a native method on top) is printed with no "line:"; we write it without one too.
        Matcher matcher = Pattern.compile("stackTrace = \\[\\s*\\n\\s+([^\\s(]+)\\(.*\\)(?:[ \\t]+line: (\\d+))?").matcher(r.out());
        while (matcher.find())
            m.merge(matcher.group(1) + (matcher.group(2) == null ? "" : ":" + matcher.group(2)), 1L, Long::sum);
        return m;
    }

    /** Our names are internal class names (java/lang/String.length); the jfr tool prints java.lang.String.length. */
    static Map<String, Long> dotted(Map<String, Long> m) {
        Map<String, Long> out = new HashMap<>();
        m.forEach((k, v) -> out.merge(k.replace('/', '.'), v, Long::sum));
        return out;
    }

    static int chunkCount(Path recording) throws IOException, InterruptedException {
        Result r = run(List.of(javaHome + "/bin/jfr", "summary", recording.toString()));
        Matcher m = Pattern.compile("Chunks: (\\d+)").matcher(r.out());
        check(r.exit() == 0 && m.find(), "jfr summary failed on " + recording + ": " + r.err());
        return Integer.parseInt(m.group(1));
    }

    static Path record() throws Exception {
        Path rec = work.resolve("burn.jfr"), dump = work.resolve("dump.jfr");
        Files.deleteIfExists(rec);
        Files.deleteIfExists(dump);
        List<String> cmd = List.of(javaHome + "/bin/java", "-XX:StartFlightRecording=filename=" + rec + ",settings=profile",
                "-cp", classes, "Burn7525", "4");
        Path out = work.resolve("burn.out");
        Process p = new ProcessBuilder(cmd).directory(work.toFile()).redirectOutput(out.toFile())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        /* A second recording of the same run, taken by jcmd JFR.dump while it runs. */
        String jcmd = javaHome + "/bin/jcmd";
        boolean dumped = false;
        for (int attempt = 0; attempt < 10 && !dumped && p.isAlive(); attempt++) {
            Thread.sleep(attempt == 0 ? 3000 : 1000);   // until the JVM's attach listener and JFR are up
            // Again until the copy holds samples of the workload's hot method (a loaded machine starts it late).
            dumped = run(List.of(jcmd, Long.toString(p.pid()), "JFR.dump", "filename=" + dump)).exit() == 0
                    && jfrconv(dump.toString(), "-o", "collapsed", "-").out().contains("Burn7525.spin");
        }
        check(p.waitFor(120, TimeUnit.SECONDS), "the workload did not finish");
        check(p.exitValue() == 0, "the workload failed");
        IntegrationTest.noCrashReports();
        check(dumped && Files.size(dump) > 0, "jcmd JFR.dump wrote no recording");
        Files.writeString(work.resolve("truth.txt"), Files.readString(out));
        return rec;
    }

    /** A JDK-made recording: the hot method, its share, and every option's effect. */
    static void jdkRecording() throws Exception {
        Path rec = record();
        String truthLine = Files.readString(work.resolve("truth.txt"));
        double truthA = IntegrationTest.truth(truthLine, "burnA");

        // The hottest method, and the 75/25 split between its two callers.
        Map<String, Long> all = collapsed("all", rec.toString());
        long total = sum(all);
        check(hottest(leaves(all)).equals("Burn7525.spin"), "hottest leaf is " + hottest(leaves(all)) + ", not Burn7525.spin");
        long a = IntegrationTest.sumContaining(all, "Burn7525.burnA"), b = IntegrationTest.sumContaining(all, "Burn7525.burnB");
        check(a + b > 50, "too few samples in burnA/burnB: " + (a + b));
        double share = (double) a / (a + b);
        System.out.printf("burnA share %.3f (truth %.3f) over %d samples%n", share, truthA, a + b);
        check(Math.abs(share - truthA) < 0.12, "burnA share " + share + " vs truth " + truthA);

        // Every ExecutionSample's leaf, as the JDK's own jfr tool reads the file.
        // jfr print leaves out frames of hidden methods (lambda forms and other hidden classes, named Name/0x... on JDK 17 and Name.0x... on JDK 25; java.lang.invoke's $Holder classes), which we keep as the agent does: such a
        // sample's leaf is its caller there, so only those samples may differ.
        Map<String, Long> cpu = dotted(leaves(collapsed("cpu", "--cpu", rec.toString()))), tool = jfrToolLeaves(rec);
        long hidden = cpu.entrySet().stream().filter(e -> e.getKey().matches(".*(\\$\\$Lambda|[./]0x).*|java\\.lang\\.invoke\\..*\\$Holder\\..*"))
                .mapToLong(Map.Entry::getValue).sum();
        long differences = 0;
        java.util.Set<String> keys = new java.util.HashSet<>(cpu.keySet());
        keys.addAll(tool.keySet());
        for (String k : keys)
            differences += Math.abs(cpu.getOrDefault(k, 0L) - tool.getOrDefault(k, 0L));
        check(sum(cpu) == sum(tool) && differences <= 2 * hidden && hidden <= sum(cpu) / 20,
                "leaf frames differ from jfr print (" + hidden + " hidden-frame samples): ours " + cpu + " jfr " + tool);

        // --lines: every ExecutionSample's leaf line as jfr print reads it (class.method:LINE); --bci splits as
        // finely or finer; --norm keeps every sample and leaves no generated lambda number or hidden-class address.
        Map<String, Long> lines = dotted(leaves(collapsed("lines", "--cpu", "--lines", rec.toString())));
        Map<String, Long> toolLines = jfrToolLeafLines(rec);
        long lineDifferences = 0;
        java.util.Set<String> lineKeys = new java.util.HashSet<>(lines.keySet());
        lineKeys.addAll(toolLines.keySet());
        for (String k : lineKeys) lineDifferences += Math.abs(lines.getOrDefault(k, 0L) - toolLines.getOrDefault(k, 0L));
        check(sum(lines) == sum(toolLines) && lineDifferences <= 2 * hidden,
                "leaf lines differ from jfr print: ours " + lines + " jfr " + toolLines);
        check(lines.keySet().stream().anyMatch(k -> k.matches("Burn7525\\.spin:\\d+")), "no Burn7525.spin:LINE leaf: " + lines.keySet());
        Map<String, Long> bci = leaves(collapsed("bci", "--cpu", "--bci", rec.toString()));
        check(sum(bci) == sum(lines) && bci.keySet().stream().anyMatch(k -> k.matches("Burn7525\\.spin@\\d+"))
                && bci.size() >= leaves(collapsed("cpu-plain", "--cpu", rec.toString())).size(),
                "--bci: no Burn7525.spin@BCI leaf, or fewer distinct leaves than without it: " + bci.keySet());
        Map<String, Long> norm = collapsed("norm", "--norm", rec.toString());
        check(sum(norm) == total && norm.keySet().stream().noneMatch(k -> k.matches(".*(\\$\\$Lambda[^.;]|[/+]0x[0-9a-f]+).*")),
                "--norm: " + sum(norm) + " of " + total + " samples, generated names left: "
                + norm.keySet().stream().filter(k -> k.contains("0x") || k.contains("$$Lambda")).toList());

        // Collapsed stacks as an input: the conversion's own output read back gives the same stacks, and a
        // diff of it with itself has every stack "same"; with the --cpu-only profile, stacks change signs.
        check(collapsed("from-collapsed", work.resolve("all.collapsed").toString()).equals(all),
                "collapsed input: the stacks read back differ from the ones written");
        Result self = jfrconv("--diff", work.resolve("all.collapsed").toString(), work.resolve("all.collapsed").toString(), "-");
        check(self.exit() == 0 && self.out().lines().filter(l -> l.matches("^(added|grown|shrunk|removed) .*")).count() == 0
                && self.out().lines().filter(l -> l.startsWith("same ")).count() == all.size(),
                "a diff of a profile with itself is not all 'same': " + self.out() + self.err());
        Result vsJfr = jfrconv("--diff", rec.toString(), work.resolve("cpu-plain.collapsed").toString(), "-");
        check(vsJfr.exit() == 0 && vsJfr.out().contains("Normalised     : % of samples"),
                "a diff of a recording with collapsed stacks is not compared as shares: " + vsJfr.out() + vsJfr.err());

        // The jcmd JFR.dump copy of the same run converts too, with the same hot method.
        Map<String, Long> dumped = collapsed("dump", work.resolve("dump.jfr").toString());
        check(leaves(dumped).getOrDefault("Burn7525.spin", 0L) > 0 && sum(dumped) <= total,
                "jcmd dump: no Burn7525.spin samples, or more samples than the whole recording");

        // The flame graph.
        Path html = work.resolve("burn.html");
        Files.deleteIfExists(html);
        Result r = jfrconv("--title", "JDK recording", rec.toString(), html.toString());
        check(r.exit() == 0 && Files.exists(html), "no flame graph: " + r.err());
        String page = Files.readString(html);
        check(page.contains("Burn7525.spin") && page.contains("JDK recording"), "the flame graph lacks the hot method or title");
        r = jfrconv("-o", "tree", rec.toString(), "-");
        check(r.exit() == 0 && r.out().contains("Burn7525.burnA"), "tree to stdout failed");

        // Several chunks in one file, and several inputs, add up.
        Path twice = work.resolve("twice.jfr");
        byte[] bytes = Files.readAllBytes(rec);
        byte[] doubled = new byte[bytes.length * 2];
        System.arraycopy(bytes, 0, doubled, 0, bytes.length);
        System.arraycopy(bytes, 0, doubled, bytes.length, bytes.length);
        Files.write(twice, doubled);
        Map<String, Long> chunks = collapsed("chunks", twice.toString());
        Map<String, Long> inputs = collapsed("inputs", rec.toString(), rec.toString());
        for (var e : all.entrySet()) {
            check(chunks.get(e.getKey()) == 2 * e.getValue(), "two chunks: " + e.getKey() + " not doubled");
            check(inputs.get(e.getKey()) == 2 * e.getValue(), "two inputs: " + e.getKey() + " not doubled");
        }
        check(chunks.size() == all.size() && inputs.size() == all.size(), "two chunks/inputs: other stacks appeared");
        int chunksOnce = chunkCount(rec);
        check(jfrconv(twice.toString(), "-o", "collapsed", "-").err().contains(2 * chunksOnce + " chunks"),
                "jfrconv did not read the " + 2 * chunksOnce + " chunks of the doubled file");

        // --threads: a [name tid=N] root on every stack, the same samples.
        Map<String, Long> threads = collapsed("threads", "--threads", rec.toString());
        check(sum(threads) == total, "--threads changed the sample count");
        for (String s : threads.keySet()) check(s.matches("\\[(?:[^;]* )?tid=\\d+\\];.*"), "no thread frame: " + s);
        check(IntegrationTest.sumContaining(threads, "Burn7525.spin") > 0 &&
                threads.keySet().stream().anyMatch(s -> s.startsWith("[main tid=")), "no [main tid=N] frame");

        // --include / --exclude, with the agent's patterns and with regular expressions.
        Map<String, Long> onlyB = collapsed("include", "--include", "*burnB", rec.toString());
        check(sum(onlyB) == b && onlyB.keySet().stream().allMatch(s -> s.contains("Burn7525.burnB")), "--include *burnB");
        Map<String, Long> onlyBre = collapsed("include-re", "-I", "Burn7525\\.burn[B]", rec.toString());
        check(onlyBre.equals(onlyB), "-I regex differs from the agent pattern");
        Map<String, Long> noA = collapsed("exclude", "-X", "Burn7525.burnA", rec.toString());
        check(sum(noA) == total - a && noA.keySet().stream().noneMatch(s -> s.contains("burnA")), "--exclude burnA");

        // --from / --to split the samples at a point (relative to the recording's start, or its end when
        // negative; both inclusive): the two sides add up to the whole, and at least one split is not trivial
        // (on a loaded machine the workload may start late or the JVM end late).
        boolean someSplit = false;
        for (String at : List.of("1s", "2500ms", "4s", "-1s", "-2s")) {
            long early = count("early", "--to", at, rec.toString()), late = count("late", "--from", at, rec.toString());
            check(early + late == total, "--to/--from " + at + ": " + early + " + " + late + " != " + total);
            someSplit |= early > 0 && late > 0;
        }
        check(someSplit, "no --from/--to split kept samples on both sides");

        // --state: the JDK records its samples as RUNNABLE, but for the odd one of a thread still starting
        // (STATE_NEW, seen once in a CI run): the JDK's own tool says which.
        Result states = run(List.of(javaHome + "/bin/jfr", "print", "--events", "jdk.ExecutionSample,jdk.NativeMethodSample",
                "--stack-depth", "1", rec.toString()));
        long runnable = states.out().lines().filter(l -> l.trim().equals("state = \"STATE_RUNNABLE\"")).count();
        check(states.exit() == 0 && runnable >= total * 95 / 100, "jfr print: " + runnable + " RUNNABLE samples of " + total);
        check(sum(collapsed("runnable", "--state", "RUNNABLE", rec.toString())) == runnable,
                "--state RUNNABLE: not the " + runnable + " samples jfr print shows RUNNABLE");
        Path sleeping = work.resolve("sleeping.collapsed");
        r = jfrconv("-s", "sleeping", rec.toString(), sleeping.toString());
        check(r.exit() == 0 && Files.readString(sleeping).isEmpty() && r.err().contains("in other states"),
                "--state sleeping kept samples");

        // --total: the JDK's sampling events carry no weight, so the total is the sample count.
        check(collapsed("total", "--total", rec.toString()).equals(all), "--total changed a weightless profile");

        // --reverse: the same stacks, leaf first.
        Map<String, Long> reversed = collapsed("reverse", "--reverse", rec.toString());
        Map<String, Long> unreversed = new HashMap<>();
        reversed.forEach((s, n) -> {
            List<String> frames = new ArrayList<>(List.of(s.split(";")));
            java.util.Collections.reverse(frames);
            unreversed.merge(String.join(";", frames), n, Long::sum);
        });
        check(unreversed.equals(all), "--reverse is not the same stacks leaf first");
    }

    /** Runs a workload to its end (a hang or failure fails the test): its wall time in ns. */
    static long runWorkload(List<String> cmd) throws Exception {
        long start = System.nanoTime();
        Result r = run(cmd);
        check(r.exit() == 0, "the workload failed: " + r.err());
        IntegrationTest.noCrashReports();
        return System.nanoTime() - start;
    }

    /** A libprof recording (cpu, 1 ms) of a workload class with its arguments. */
    static Path agentRecording(String name, String... workload) throws Exception {
        Path rec = work.resolve(name + ".jfr");
        Files.deleteIfExists(rec);
        List<String> cmd = new ArrayList<>(List.of(javaHome + "/bin/java",
                "-agentpath:" + agent + "=start,event=cpu,interval=1ms,file=" + rec, "-cp", classes));
        cmd.addAll(List.of(workload));
        runWorkload(cmd);
        check(Files.size(rec) > 0, "no recording written: " + rec);
        return rec;
    }

    /** The thread of a "[name tid=N];..." stack, its tid and any number ending it left out ("GC Thread#1": "GC Thread"). */
    static String threadOf(String stack) {
        return stack.substring(1, stack.indexOf(';')).replaceFirst(" tid=\\d+\\]$", "").replaceFirst("#?\\d+$", "").replace("]", "");
    }

    static String frameAt(String stack, int i) {
        String[] f = stack.split(";");
        return i < f.length ? f[i] : "";
    }

    /** Each stack with its first n frames left out, merged; what has no more than n frames: the skip marker. */
    static Map<String, Long> skipped(Map<String, Long> stacks, int n) {
        Map<String, Long> m = new HashMap<>();
        stacks.forEach((s, c) -> {
            String[] f = s.split(";");
            String key = f.length <= n ? "[all_frames_skipped]" : String.join(";", java.util.Arrays.copyOfRange(f, n, f.length));
            m.merge(key, c, Long::sum);
        });
        return m;
    }

    /** Sum of the samples under each thread whose category frame (the second) is one of 'categories'. */
    static long inCategories(Map<String, Long> classified, String thread, String... categories) {
        List<String> wanted = List.of(categories);
        return classified.entrySet().stream().filter(e -> threadOf(e.getKey()).equals(thread)
                && (wanted.isEmpty() || wanted.contains(frameAt(e.getKey(), 1)))).mapToLong(Map.Entry::getValue).sum();
    }

    /**
     * --classify, --skip, --grain on a workload whose threads each do one known kind of work (Categories: a
     * class-loading thread, a System.gc() loop, a Java spin in main), recorded by libprof (every thread, native
     * frames) and by the JDK (Java threads' Java frames). The truth is the thread a sample comes from: the JVM's
     * GC threads must be [gc], its compiler threads [jit], the loading thread class work, main's spin Java code.
     */
    static void shaping() throws Exception {
        Path ours = agentRecording("categories", "Categories", "3");
        Path jdk = work.resolve("categories-jdk.jfr");
        Files.deleteIfExists(jdk);
        runWorkload(List.of(javaHome + "/bin/java", "-XX:StartFlightRecording=filename=" + jdk
                + ",settings=profile,jdk.ExecutionSample#period=1ms", "-cp", classes, "Categories", "3"));
        for (Path rec : List.of(ours, jdk)) {
            boolean agentMade = rec == ours;
            String tag = agentMade ? "ours" : "jdk";
            Map<String, Long> plain = collapsed(tag + "-threads", "-t", rec.toString());
            Map<String, Long> classified = collapsed(tag + "-classify", "-t", "--classify", rec.toString());
            long total = sum(plain);
            check(total >= 20, tag + ": too few samples: " + total);

            // --classify: the same stacks with one category frame under the thread frame.
            Map<String, Long> unclassified = new HashMap<>();
            classified.forEach((k, v) -> {
                String category = frameAt(k, 1);
                check(category.matches("\\[(gc|jit|vm|class_load|class_init|class_resolve|class_verify|lambda_init|"
                        + "Interpreter|c1_comp|c2_comp|java|native|kernel)\\]"), tag + ": no category frame in " + k);
                unclassified.merge(k.replaceFirst(";\\[[A-Za-z0-9_]+\\];", ";"), v, Long::sum);
            });
            check(unclassified.equals(plain), tag + ": --classify changed more than the category frame: " + diff(plain, unclassified));
            Map<String, Long> byCategory = new java.util.TreeMap<>();
            classified.forEach((k, v) -> byCategory.merge(threadOf(k) + " " + frameAt(k, 1), v, Long::sum));
            System.out.println(tag + " categories by thread: " + byCategory);

            // The loading thread loads classes; main's spin is Java code (by its execution type, or [java]).
            long loader = inCategories(classified, "loader");
            long loaderClass = inCategories(classified, "loader", "[class_load]", "[class_resolve]", "[class_verify]", "[class_init]");
            // Only for our recording: the JDK samples a thread only while it runs Java code, which in there is as
            // often the loader's own Java (its constructor, hashCode) as class work; its samples inside loadClass are
            // checked below. (A JDK run gave 10 of 20.)
            check(!agentMade || loader < 20 || loaderClass >= 0.7 * loader, tag + ": the loading thread's samples are class work in "
                    + loaderClass + " of " + loader);
            classified.forEach((k, v) -> check(!k.contains("java/lang/ClassLoader.loadClass")
                    || frameAt(k, 1).matches("\\[class_(load|resolve|verify|init)\\]"), tag + ": inside loadClass, not class work: " + k));
            long spin = classified.entrySet().stream().filter(e -> e.getKey().endsWith(";Categories.spin"))
                    .mapToLong(Map.Entry::getValue).sum();
            long spinJava = classified.entrySet().stream().filter(e -> e.getKey().endsWith(";Categories.spin")
                    && frameAt(e.getKey(), 1).matches("\\[(Interpreter|c1_comp|c2_comp|java)\\]")).mapToLong(Map.Entry::getValue).sum();
            check(spin > 0 && spinJava == spin, tag + ": main's spin (leaf Categories.spin) is Java code in " + spinJava + " of " + spin);
            // The category of a Java leaf follows that frame's own execution type in the recording (a method the
            // profile names once may run interpreted in one sample and compiled in the next): --ann shows it.
            Map<String, String> byType = Map.of("_[j]", "[c2_comp]", "_[0]", "[Interpreter]", "_[1]", "[c1_comp]");
            Map<String, Long> annotated = collapsed(tag + "-classify-ann", "-t", "--ann", "--classify", rec.toString());
            Map<String, Long> stripped = new HashMap<>();
            annotated.forEach((k, v) -> {
                Matcher m = Pattern.compile(";Categories\\.spin(_\\[[j01]\\])$").matcher(k);
                if (m.find()) check(frameAt(k, 1).equals(byType.get(m.group(1))), tag + ": " + m.group(1) + " leaf in " + frameAt(k, 1) + ": " + k);
                stripped.merge(k.replaceAll("_\\[[jik01]\\](?=;|$)", ""), v, Long::sum);
            });
            // Without --ann the names lose their types, not the categories.
            check(stripped.equals(classified), tag + ": --classify without --ann differs from it with --ann: " + diff(stripped, classified));
            if (agentMade) {
                // libprof samples the JVM's own threads: the GC threads collect, the compiler threads compile.
                check(loader > 0, "ours: no sample of the loading thread");
                long gcThreads = inCategories(classified, "GC Thread"), gcThreadsGc = inCategories(classified, "GC Thread", "[gc]");
                long compiler = inCategories(classified, "C2 CompilerThread") + inCategories(classified, "C1 CompilerThread");
                long compilerJit = inCategories(classified, "C2 CompilerThread", "[jit]") + inCategories(classified, "C1 CompilerThread", "[jit]");
                long gc = classified.entrySet().stream().filter(e -> frameAt(e.getKey(), 1).equals("[gc]")).mapToLong(Map.Entry::getValue).sum();
                long gcOutside = classified.entrySet().stream().filter(e -> frameAt(e.getKey(), 1).equals("[gc]")
                        && !threadOf(e.getKey()).matches("GC Thread|VM Thread|G1 .*")).mapToLong(Map.Entry::getValue).sum();
                System.out.printf("ours: [gc] %d of %d samples (%.1f%%), GC threads %d (%d [gc]), compiler threads %d (%d [jit])%n",
                        gc, total, 100.0 * gc / total, gcThreads, gcThreadsGc, compiler, compilerJit);
                check(gcThreads > 0 && gcThreadsGc == gcThreads, "ours: GC threads' samples not all [gc]: " + gcThreadsGc + " of " + gcThreads);
                // A compiler thread is compiling when CompileBroker is on its stack; outside it (the thread starting, or
                // exiting in libc when the JVM retires a compiler thread it no longer needs) it is not, and is not [jit].
                long compilerInBroker = classified.entrySet().stream().filter(e -> threadOf(e.getKey()).matches("C[12] CompilerThread")
                        && e.getKey().contains(";CompileBroker::")).mapToLong(Map.Entry::getValue).sum();
                check(compilerJit == compilerInBroker && compilerJit >= 0.97 * compiler, "ours: compiler threads' samples [jit] "
                        + compilerJit + " of " + compiler + ", " + compilerInBroker + " of them inside CompileBroker");
                check(gc >= 0.05 * total && gcOutside == 0, "ours: a System.gc() loop gives [gc] only " + gc + " of " + total
                        + " samples, " + gcOutside + " of them outside the GC and VM threads");
            }

            // --skip N: exactly the N root-side frames of every stack left out (the thread frame first).
            for (int n : List.of(1, 3)) {
                Map<String, Long> got = collapsed(tag + "-skip" + n, "-t", "--skip", Integer.toString(n), rec.toString());
                check(got.equals(skipped(plain, n)), tag + ": --skip " + n + ": " + diff(skipped(plain, n), got));
            }
            check(collapsed(tag + "-classify-skip", "-t", "--classify", "--skip", "2", rec.toString()).equals(skipped(classified, 2)),
                    tag + ": --classify --skip 2 is not the classified stacks without their thread and category frames");

            // --grain X: counts in multiples of X (each the stack's floor or the next multiple), the total within
            // X, every stack of X samples or more kept, and only smaller ones gone.
            long grain = Math.max(2, total / 50);
            Map<String, Long> coarse = collapsed(tag + "-grain", "-t", "--grain", Long.toString(grain), rec.toString());
            check(Math.abs(sum(coarse) - total) <= grain, tag + ": --grain " + grain + ": total " + sum(coarse) + " vs " + total);
            for (var e : plain.entrySet()) {
                long c = e.getValue(), got = coarse.getOrDefault(e.getKey(), 0L), floor = c / grain * grain;
                check(got == floor || got == floor + grain, tag + ": --grain " + grain + ": " + c + " became " + got + ": " + e.getKey());
                check(c < grain || got > 0, tag + ": --grain dropped a stack of " + c + " samples");
            }
            // Of the stacks under a grain, only as many stay as their samples make whole grains (plus the carry's one).
            long smallSamples = plain.values().stream().filter(c -> c < grain).mapToLong(Long::longValue).sum();
            long smallKept = coarse.keySet().stream().filter(k -> plain.getOrDefault(k, 0L) < grain).count();
            System.out.printf("%s: --grain %d: %d stacks of %d kept, %d of them under a grain (%d samples in such stacks)%n",
                    tag, grain, coarse.size(), plain.size(), smallKept, smallSamples);
            check(plain.keySet().containsAll(coarse.keySet()) && smallKept <= smallSamples / grain + 1,
                    tag + ": --grain " + grain + " made new stacks, or kept " + smallKept + " stacks under a grain");
        }
    }

    /**
     * jfrconv --diff on two libprof recordings of one workload whose hot method changes share: Burn7525 with burnA
     * at 75% of its CPU (2 s), then at 25% (3 s). burnA's stack must shrink and burnB's grow, each as the known
     * shares say; values are per second of each recording (count / duration for every stack alike, durations
     * close to the runs' wall times); the HTML form renders the same stacks.
     */
    static void diffJfr() throws Exception {
        long[] wall = new long[2];
        long t0 = System.nanoTime();
        Path base = agentRecording("diff-base", "Burn7525", "2", "0.75");
        wall[0] = System.nanoTime() - t0;
        t0 = System.nanoTime();
        Path next = agentRecording("diff-new", "Burn7525", "3", "0.25");
        wall[1] = System.nanoTime() - t0;
        Result r = jfrconv("--diff", base.toString(), next.toString(), "-");
        check(r.exit() == 0, "--diff failed: " + r.err());
        check(r.out().contains("Normalised     : samples/s (per second of each recording)"), "not per second: " + r.out());
        // change delta base new [delta %] stack
        Pattern row = Pattern.compile("^(added|grown|shrunk|removed|same)\\s+([-+][0-9.]+)\\s+([0-9.]+)\\s+([0-9.]+)\\s+(?:[-+][0-9.]+%\\s+)?(\\S.*)$");
        Map<String, double[]> rows = new HashMap<>();
        Map<String, String> changes = new HashMap<>();
        for (String line : r.out().lines().toList()) {
            Matcher m = row.matcher(line);
            if (!m.matches()) continue;
            rows.put(m.group(5), new double[] {Double.parseDouble(m.group(3)), Double.parseDouble(m.group(4)), Double.parseDouble(m.group(2))});
            changes.put(m.group(5), m.group(1));
        }
        Map<String, Long> baseStacks = collapsed("diff-base", base.toString()), nextStacks = collapsed("diff-new", next.toString());
        java.util.Set<String> all = new java.util.HashSet<>(baseStacks.keySet());
        all.addAll(nextStacks.keySet());
        check(rows.keySet().equals(all), "the diff's stacks are not the union of both profiles': " + rows.size() + " vs " + all.size());

        // Per second: every stack's value is its count over its recording's duration, one duration per recording.
        double[] seconds = new double[2];
        for (int side = 0; side < 2; side++) {
            Map<String, Long> counts = side == 0 ? baseStacks : nextStacks;
            String hot = hottest(counts);
            seconds[side] = counts.get(hot) / rows.get(hot)[side];
            for (var e : counts.entrySet()) {
                double expected = e.getValue() / seconds[side];
                check(Math.abs(rows.get(e.getKey())[side] - expected) <= 0.0001 + 1e-6 * expected,
                        "not count/duration: " + e.getKey() + " " + rows.get(e.getKey())[side] + " vs " + expected);
            }
            System.out.printf("%s: %d samples over %.2f s of recording (the run took %.2f s)%n", side == 0 ? "base" : "new",
                    sum(counts), seconds[side], wall[side] / 1e9);
            check(seconds[side] > 0.3 * wall[side] / 1e9 && seconds[side] <= wall[side] / 1e9 + 0.5,
                    "the recording's duration " + seconds[side] + " s does not fit the run's " + wall[side] / 1e9 + " s");
        }
        for (var e : rows.entrySet()) {
            double[] v = e.getValue();
            // (the text rounds to 4 decimals: values that close may be either side of each other)
            String expected = v[0] == 0 ? "added" : v[1] == 0 ? "removed" : Math.abs(v[1] - v[0]) < 0.0002
                    ? changes.get(e.getKey()) : v[1] > v[0] ? "grown" : "shrunk";
            check(changes.get(e.getKey()).equals(expected) && Math.abs(v[2] - (v[1] - v[0])) < 0.0002,
                    "wrong change or sign: " + changes.get(e.getKey()) + " " + java.util.Arrays.toString(v) + " " + e.getKey());
        }

        // burnA shrinks and burnB grows, with the shares the workload chose (75/25 then 25/75).
        double[] a = new double[2], b = new double[2];
        rows.forEach((k, v) -> {
            for (int side = 0; side < 2; side++) {
                if (k.contains("Burn7525.burnA")) a[side] += v[side];
                if (k.contains("Burn7525.burnB")) b[side] += v[side];
            }
        });
        double shareBase = a[0] / (a[0] + b[0]), shareNext = a[1] / (a[1] + b[1]);
        System.out.printf("burnA share: base %.3f, new %.3f; burnA %.1f -> %.1f /s, burnB %.1f -> %.1f /s%n",
                shareBase, shareNext, a[0], a[1], b[0], b[1]);
        check(Math.abs(shareBase - 0.75) < 0.12 && Math.abs(shareNext - 0.25) < 0.12, "burnA shares " + shareBase + ", " + shareNext);
        String hotA = rows.keySet().stream().filter(k -> k.endsWith("Burn7525.burnA;Burn7525.spin"))
                .max(java.util.Comparator.comparingDouble(k -> rows.get(k)[0])).orElseThrow();
        String hotB = rows.keySet().stream().filter(k -> k.endsWith("Burn7525.burnB;Burn7525.spin"))
                .max(java.util.Comparator.comparingDouble(k -> rows.get(k)[1])).orElseThrow();
        check(changes.get(hotA).equals("shrunk") && rows.get(hotA)[2] < 0, "burnA's stack did not shrink: " + hotA);
        check(changes.get(hotB).equals("grown") && rows.get(hotB)[2] > 0, "burnB's stack did not grow: " + hotB);

        // The HTML page: written, with both hot stacks in its data (the browser test checks how it looks).
        Path html = work.resolve("diff.html");
        Files.deleteIfExists(html);
        r = jfrconv("--diff", base.toString(), next.toString(), html.toString());
        String page = r.exit() == 0 ? Files.readString(html) : "";
        check(page.contains("Burn7525.burnA") && page.contains("Burn7525.burnB") && page.contains("/s"),
                "no diff page, or without the hot methods: " + r.err());
    }

    /**
     * One profiling session written both ways: the agent streams a recording (file=x.jfr, a chunk per second)
     * and, at stop, writes the collapsed stacks of the same samples; jfrconv's conversion of the recording must
     * equal them exactly, with thread frames and annotations, and without (their names stripped).
     */
    static void roundTrip() throws Exception {
        Path rec = work.resolve("rt.jfr"), direct = work.resolve("rt-direct.collapsed");
        Files.deleteIfExists(rec);
        Files.deleteIfExists(direct);
        String jprof = Path.of(jfrconv).resolveSibling("jprof").toString();
        List<String> cmd = List.of(javaHome + "/bin/java",
                "-agentpath:" + agent + "=start,event=cpu,interval=1ms,threads,ann,chunktime=1s,file=" + rec,
                "-cp", classes, "Burn7525", "5");
        Process p = new ProcessBuilder(cmd).directory(work.toFile()).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String pid = Long.toString(p.pid());
        long samples = 0;
        Pattern count = Pattern.compile("samples: (\\d+)");
        for (int i = 0; i < 60 && samples < 1500 && p.isAlive(); i++) {
            Thread.sleep(500);
            Matcher m = count.matcher(run(List.of(jprof, "status", pid)).out());
            if (m.find()) samples = Long.parseLong(m.group(1));
        }
        check(samples > 0, "the agent never reported samples");
        Result stop = run(List.of(jprof, "stop", "-f", direct.toString(), pid));
        check(stop.exit() == 0, "jprof stop failed: " + stop.err());
        check(p.waitFor(120, TimeUnit.SECONDS) && p.exitValue() == 0, "the workload failed");
        IntegrationTest.noCrashReports();

        Map<String, Long> agentStacks = IntegrationTest.readCollapsed(direct);
        Map<String, Long> converted = collapsed("rt-threads-ann", "--threads", "--ann", rec.toString());
        System.out.println("round trip: " + sum(agentStacks) + " samples, " + agentStacks.size() + " stacks, "
                + chunkCount(rec) + " chunks");
        check(sum(agentStacks) > 200, "too few samples for a round trip: " + sum(agentStacks));
        check(converted.equals(agentStacks), "converted differs from direct: " + diff(agentStacks, converted));
        check(chunkCount(rec) >= 2, "chunktime=1s wrote a single chunk");

        // Plain names: the agent's stacks without their thread frames and annotations, merged.
        Map<String, Long> plain = new HashMap<>();
        agentStacks.forEach((s, n) -> plain.merge(s.replaceFirst("^\\[(?:[^;]* )?tid=\\d+\\];", "")
                .replaceAll("_\\[[jki01]\\](;|$)", "$1"), n, Long::sum));
        Map<String, Long> convertedPlain = collapsed("rt-plain", rec.toString());
        check(convertedPlain.equals(plain), "converted (plain names) differs: " + diff(plain, convertedPlain));
    }

    static String diff(Map<String, Long> expected, Map<String, Long> actual) {
        StringBuilder sb = new StringBuilder();
        for (var e : expected.entrySet()) {
            if (!e.getValue().equals(actual.get(e.getKey())))
                sb.append("\n  expected ").append(e.getValue()).append(" got ").append(actual.get(e.getKey())).append(": ").append(e.getKey());
        }
        for (var k : actual.keySet()) if (!expected.containsKey(k)) sb.append("\n  unexpected: ").append(k);
        return sb.length() > 4000 ? sb.substring(0, 4000) : sb.toString();
    }

    /** Truncated, corrupted and foreign inputs: exit status 1 and a message naming the file. */
    static void badInput(Path synth) throws Exception {
        // A small recording of the JDK's (the fuzz corpus's) to cut and corrupt.
        Result good = jfrconv(synth.toString(), "-o", "collapsed", "-");
        check(good.exit() == 0 && good.out().contains("Burn7525.spin"), "the good recording does not convert");
        byte[] bytes = Files.readAllBytes(synth);

        Path truncated = work.resolve("truncated.jfr");
        Files.write(truncated, java.util.Arrays.copyOf(bytes, bytes.length / 2));
        expectError(truncated, "chunk size");

        Path corrupt = work.resolve("corrupt.jfr");
        byte[] c = bytes.clone();
        for (int i = 24; i < 32; i++) c[i] = (byte) 0xff;  // the metadata offset
        Files.write(corrupt, c);
        expectError(corrupt, "metadata offset");

        Path corrupt2 = work.resolve("corrupt2.jfr");
        c = bytes.clone();
        for (int i = 68; i < Math.min(c.length, 4096); i++) c[i] = (byte) 0x80;  // events become endless varints
        Files.write(corrupt2, c);
        expectError(corrupt2, "offset");

        expectError(Path.of(classes, "Burn7525.class"), "not a JFR chunk");
        Path text = work.resolve("notes.jfr");
        Files.writeString(text, "these are notes, not a recording\n".repeat(10));
        expectError(text, "not a JFR chunk");
        Path empty = work.resolve("empty.jfr");
        Files.write(empty, new byte[0]);
        expectError(empty, "empty");
        expectError(work.resolve("missing.jfr"), "cannot open");

        // Bad command lines: exit status 2 with the option named.
        Result r = jfrconv("--state", "", synth.toString(), "x.collapsed");
        check(r.exit() == 2 && r.err().contains("--state"), "empty --state accepted");
        r = jfrconv("-o", "svg", synth.toString(), "x.svg");
        check(r.exit() == 2 && r.err().contains("svg"), "-o svg accepted");
        r = jfrconv("--from", "soon", synth.toString(), "x.collapsed");
        check(r.exit() == 2 && r.err().contains("soon"), "--from soon accepted");
        r = jfrconv("--bogus", synth.toString(), "x.collapsed");
        check(r.exit() == 2 && r.err().contains("--bogus"), "--bogus accepted");
        r = jfrconv(synth.toString(), work.resolve("no/such/dir/x.collapsed").toString());
        check(r.exit() == 1 && r.err().contains("no/such/dir"), "unwritable output not reported");
        r = jfrconv("--help");
        check(r.exit() == 0 && r.out().contains("--include"), "--help");
        r = jfrconv("--version");
        check(r.exit() == 0 && r.out().matches("(?s)jfrconv \\(libprof\\) [0-9]+\\.[0-9]+\\.[0-9]+\n.*Apache-2\\.0.*"),
              "--version printed: " + r.out());
    }

    static void expectError(Path input, String what) throws IOException, InterruptedException {
        Path out = work.resolve("bad.collapsed");
        Files.deleteIfExists(out);
        Result r = jfrconv(input.toString(), out.toString());
        check(r.exit() == 1, input + ": exit " + r.exit() + ", expected 1");
        check(r.err().contains(input.toString()) && r.err().contains(what),
                input + ": the message does not name the file and '" + what + "': " + r.err());
        check(!Files.exists(out), input + ": an output was written anyway");
    }
}
