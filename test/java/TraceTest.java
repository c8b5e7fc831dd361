import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Integration tests of latency tracing (trace=pkg.Class.method[:threshold]) on TraceWorkload, whose truth is
 * known: of ten calls of TraceWorkload.handle one takes 150 ms, the others about 1 ms (with "throw", a
 * seventh takes 120 ms and throws).
 *   slow_call  trace=...handle:100ms to collapsed stacks: exactly one call traced, on its thread, with its
 *              callers; with total, its weight is its duration, at least 150 ms and at most what the
 *              workload measured around the call
 *   jfr        with cpu samples at 1 ms into JFR: the JDK's jfr prints the slow call and the throwing one as
 *              jdk.MethodTrace (durations, thread, stack); jfrconv --trace converts them; jfrconv --latency
 *              keeps exactly the CPU samples taken inside them; jfrconv -o gecko marks them on the timeline
 *   engines    cpu, wall, alloc and nativemem with trace= in one session: every event in the recording
 *   deep       a traced method recursing 201 deep, every call slow: each of the 201 calls recorded (the
 *              agent's stack of calls under way grows past its first 64)
 *   options    several trace= targets with their own thresholds, a descriptor, patterns; bad targets refused
 * Usage: java TraceTest <test> <java_home> <libprof.so> <jfrconv> <workload classpath> <work dir>
 */
public class TraceTest {
    static final String HANDLE = "TraceWorkload.handle";
    static final Pattern TRUTH = Pattern.compile("TRUTH call (\\d+) took (\\d+) us");

    public static void main(String[] args) throws Exception {
        JfrconvTest.runWithJfrconv(args, test -> {
            switch (test) {
                case "slow_call" -> slowCall();
                case "jfr" -> jfr();
                case "engines" -> engines();
                case "options" -> options();
                case "latency_diff" -> latencyDiff();
                case "deep" -> deep();
                default -> throw new IllegalArgumentException("unknown test " + test);
            }
        });
    }

    static void check(boolean condition, String message) {
        IntegrationTest.check(condition, message);
    }

    /** The workload under the agent; it must succeed with nothing broken. Returns its stdout. */
    static String workload(String options, String mode) throws Exception {
        IntegrationTest.Run run = IntegrationTest.runJava(options, "-Xverify:all", "TraceWorkload", mode);
        check(run.exit() == 0 && run.out().contains("TRUTH call 9"), "workload failed under " + options + ": " + run.err());
        check(!run.err().contains("VerifyError") && !run.err().contains("left unchanged"), "broken: " + run.err());
        return run.out();
    }

    /** What the workload measured around call i, in ns. */
    static long truth(String out, int call) {
        Matcher m = TRUTH.matcher(out);
        while (m.find()) {
            if (Integer.parseInt(m.group(1)) == call) return Long.parseLong(m.group(2)) * 1000;
        }
        throw new AssertionError("no TRUTH line for call " + call + ": " + out);
    }

    /** What the workload measured around each of its calls that took 'ns' or more, in ns. */
    static List<Long> measuredAtLeast(String out, long ns) {
        List<Long> slow = new ArrayList<>();
        Matcher m = TRUTH.matcher(out);
        while (m.find()) {
            long took = Long.parseLong(m.group(2)) * 1000;
            if (took >= ns) slow.add(took);
        }
        return slow;
    }

    static void slowCall() throws Exception {
        Path samples = IntegrationTest.work.resolve("samples.collapsed"), total = IntegrationTest.work.resolve("total.collapsed");
        String first = workload("start,threads,trace=" + HANDLE + ":100ms,file=" + samples, "");
        Map<String, Long> stacks = IntegrationTest.readCollapsed(samples);
        System.out.println("  traced: " + stacks);
        check(stacks.size() == 1, "exactly one traced stack expected: " + stacks);
        String stack = stacks.keySet().iterator().next();
        // One call spins 150 ms, the others 1 ms; a busy machine may keep one of those from its CPU for 100 ms,
        // which the workload then measured too: at most the calls it measured at 99 ms or more are traced.
        int slowMeasured = measuredAtLeast(first, 99_000_000L).size();
        check(stacks.get(stack) >= 1 && stacks.get(stack) <= slowMeasured, "calls over 100ms: " + stacks + " (the "
                + "workload measured " + slowMeasured + ")");
        check(stack.startsWith("[slow-caller tid=") && stack.endsWith(";TraceWorkload.serve;" + HANDLE),
                "the call on its own thread, under its caller serve, the traced method on top: " + stack);
        check(stack.contains(";TraceWorkload.lambda$main$0;"), "the caller's caller too: " + stack);

        String out = workload("start,threads,total,trace=" + HANDLE + ":100ms,file=" + total, "");
        Map<String, Long> weighted = IntegrationTest.readCollapsed(total);
        // Calls the agent timed at 100 ms or more took about that long around them too (1% between the clocks).
        long ns = IntegrationTest.sum(weighted), measured = measuredAtLeast(out, 99_000_000L).stream()
                .mapToLong(Long::longValue).sum();
        System.out.printf("  the slow call: %.1f ms traced, %.1f ms measured around the calls of 100 ms or more%n",
                ns / 1e6, measured / 1e6);
        check(weighted.size() == 1, "one stack with total: " + weighted);
        check(truth(out, 3) >= 150_000_000L, "the fourth call took less than the 150 ms it spins: " + out);
        // The agent times with the CPU's counter, the workload with System.nanoTime: 1% between the clocks.
        check(ns >= 150_000_000L * 99 / 100 && ns <= measured * 101 / 100, "duration " + ns
                + " ns: at least the 150 ms spun, at most the " + measured + " ns measured around the slow calls");
    }

    static void deep() throws Exception {
        Path file = IntegrationTest.work.resolve("deep.collapsed");
        workload("start,trace=TraceWorkload.recurse:100ms,file=" + file, "deep");
        Map<String, Long> stacks = IntegrationTest.readCollapsed(file);
        long calls = IntegrationTest.sum(stacks);
        int deepest = stacks.keySet().stream().mapToInt(k -> k.split("TraceWorkload.recurse", -1).length - 1).max().orElse(0);
        System.out.printf("  %d slow calls of recurse, the deepest stack with %d recurse frames%n", calls, deepest);
        check(calls == TraceWorkload.DEEP + 1, "every one of the " + (TraceWorkload.DEEP + 1)
                + " nested calls is slow and recorded: " + calls);
        check(deepest == TraceWorkload.DEEP + 1, "the innermost call with all its callers: " + deepest);
    }

    static List<String> jfrPrint(Path file) throws Exception {
        JfrconvTest.Result r = JfrconvTest.run(List.of(IntegrationTest.javaHome + "/bin/jfr", "print", "--events",
                "jdk.MethodTrace", "--stack-depth", "8", file.toString()));
        check(r.exit() == 0, "jfr print failed: " + r.err());
        List<String> events = new ArrayList<>();
        for (String e : r.out().split("\n(?=jdk\\.MethodTrace \\{)")) {
            if (e.startsWith("jdk.MethodTrace")) events.add(e);
        }
        return events;
    }

    static long millis(String event) {
        Matcher m = Pattern.compile("duration = ([0-9.]+) (ms|s)").matcher(event);
        check(m.find(), "no duration in " + event);
        double v = Double.parseDouble(m.group(1));
        return (long) (m.group(2).equals("s") ? v * 1000 : v);
    }

    static void jfr() throws Exception {
        Path file = IntegrationTest.work.resolve("trace.jfr");
        Files.deleteIfExists(file);
        String out = workload("start,event=cpu,interval=1ms,threads,trace=" + HANDLE + ":100ms,file=" + file, "throw");
        List<String> events = jfrPrint(file);
        events.forEach(e -> System.out.println("  " + e.replace("\n", "\n  ")));
        // The slow call and the throwing one; on a busy machine also a fast call the workload measured at 100 ms.
        int slowMeasured = measuredAtLeast(out, 99_000_000L).size();
        check(events.size() >= 2 && events.size() <= slowMeasured, "the slow call and the throwing one, nothing "
                + "else: " + events.size() + " events (the workload measured " + slowMeasured + " of 100 ms or more)");
        for (String e : events) {
            check(e.contains("eventThread = \"slow-caller\""), "on the caller's thread: " + e);
            check(e.contains("method = N/A"), "method null, as async-profiler writes it: " + e);
            int handle = e.indexOf("TraceWorkload.handle("), serve = e.indexOf("TraceWorkload.serve(");
            check(handle > 0 && serve > handle, "handle on top, serve under it: " + e);
        }
        List<Long> lasted = events.stream().map(TraceTest::millis).toList();
        long slowest = truth(out, 3) / 1_000_000 + 1, throwing = truth(out, 6) / 1_000_000 + 1;
        check(lasted.stream().anyMatch(ms -> ms >= 150 && ms <= slowest), "no event for the 150 ms call (at most "
                + slowest + " ms measured): " + lasted);
        check(lasted.stream().filter(ms -> ms >= 120 && ms <= Math.max(slowest, throwing)).count() >= 2,
                "no event for the throwing 120 ms call (at most " + throwing + " ms measured): " + lasted);

        Map<String, Long> traced = JfrconvTest.collapsed("traced", "--trace", "--total", file.toString());
        check(traced.size() == 1 && IntegrationTest.sum(traced) >= 270_000_000L,
                "jfrconv --trace: both calls on one stack, weighing their durations: " + traced);

        // --latency keeps the CPU samples of the thread inside its slow calls: all of them are in handle, and
        // those of slowPart (which only the slow call runs) are all kept.
        Map<String, Long> all = JfrconvTest.collapsed("all", "--cpu", "--threads", file.toString());
        Map<String, Long> slow = JfrconvTest.collapsed("slow", "--cpu", "--threads", "--latency", "100", file.toString());
        long inSlowPart = IntegrationTest.sumContaining(all, "TraceWorkload.slowPart");
        System.out.printf("  samples: %d in all, %d kept by --latency, %d in slowPart%n", IntegrationTest.sum(all),
                IntegrationTest.sum(slow), inSlowPart);
        check(inSlowPart > 0, "CPU samples in slowPart: " + all);
        check(IntegrationTest.sumContaining(slow, "TraceWorkload.slowPart") == inSlowPart,
                "every sample of slowPart kept: " + slow);
        for (var e : slow.entrySet())
            check(e.getKey().startsWith("[slow-caller")
                    && (e.getKey().contains(";" + HANDLE + ";") || e.getKey().endsWith(";" + HANDLE)),
                    "a kept sample outside a slow call: " + e);
        check(IntegrationTest.sum(slow) < IntegrationTest.sum(all), "--latency dropped the other samples");
        // the Firefox Profiler file: each slow call an interval marker on the samples' timeline
        Path gecko = IntegrationTest.work.resolve("trace.gecko.json");
        Files.deleteIfExists(gecko);
        check(JfrconvTest.jfrconv("-o", "gecko", file.toString(), gecko.toString()).exit() == 0, "jfrconv -o gecko failed");
        String json = Files.readString(gecko);
        Matcher marker = Pattern.compile("\\[\\d+,([0-9.]+),([0-9.]+),1,\\d+,\\{\"type\":\"MethodTrace\"\\}\\]").matcher(json);
        int markers = 0;
        while (marker.find()) {
            double ms = Double.parseDouble(marker.group(2)) - Double.parseDouble(marker.group(1));
            check(ms >= 99.9, "a slow call's marker lasts " + ms + " ms");
            markers++;
        }
        check(markers == events.size() && json.contains("\"slow call: TraceWorkload.handle "),
                "one slow-call marker per jdk.MethodTrace: " + markers + " of " + events.size());
        Path none = JfrconvTest.convert("none", "--cpu", "--latency", "1s", file.toString());
        check(Files.readString(none).isEmpty(), "no call lasted 1 s, yet samples were kept: " + Files.readString(none));
    }

    /**
     * jfrconv --latency-diff: every call of handle traced (threshold 0), the samples inside the fast calls
     * compared with those inside the slow one. Only the slow call runs slowPart: its stacks are new in the
     * slow side and absent from the fast one; the fast calls' own spin (handle;spin) is absent from the slow
     * side.
     */
    static void latencyDiff() throws Exception {
        Path file = IntegrationTest.work.resolve("all-calls.jfr");
        Files.deleteIfExists(file);
        workload("start,event=cpu,interval=1ms,trace=" + HANDLE + ":0,file=" + file, "");
        JfrconvTest.Result r = JfrconvTest.jfrconv("--cpu", "--latency-diff", "100ms", file.toString(), "-");
        check(r.exit() == 0, "jfrconv --latency-diff failed: " + r.err());
        System.out.println("  " + r.out().replace("\n", "\n  "));
        check(r.out().contains("calls under 100.000 ms") && r.out().contains("calls of 100.000 ms or more"),
                "the two sides named: " + r.out());
        long slowRows = 0, fastOnly = 0;
        for (String line : r.out().split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length < 5 || !f[0].matches("added|grown|shrunk|removed|same")) continue;
            String stack = f[f.length - 1];
            if (stack.contains("TraceWorkload.slowPart")) {
                slowRows++;
                check(f[0].equals("added"), "slowPart, run only by the slow call, is new on the slow side: " + line);
            } else if (stack.endsWith("TraceWorkload.handle;TraceWorkload.spin")) {
                fastOnly++;
                check(f[0].equals("removed"), "the fast calls' spin is not in the slow call: " + line);
            }
        }
        check(slowRows > 0, "no slowPart stack in the diff: " + r.out());
        System.out.printf("  %d slowPart stacks added, %d fast-call stacks removed%n", slowRows, fastOnly);
        JfrconvTest.Result both = JfrconvTest.jfrconv("--diff", "--latency-diff", "100ms", file.toString(), file.toString(), "-");
        check(both.exit() != 0 && both.err().contains("--latency-diff takes one recording"), "with --diff: " + both.err());
    }

    static void engines() throws Exception {
        Path file = IntegrationTest.work.resolve("engines.jfr");
        Files.deleteIfExists(file);
        String out = workload("start,event=cpu,wall,alloc=1k,nativemem,trace=" + HANDLE + ":100ms,file=" + file, "");
        long slowMeasured = measuredAtLeast(out, 99_000_000L).size();
        JfrconvTest.Result r = JfrconvTest.run(List.of(IntegrationTest.javaHome + "/bin/jfr", "summary", file.toString()));
        check(r.exit() == 0, "jfr summary failed: " + r.err());
        for (String event : List.of("jdk.MethodTrace", "jdk.ExecutionSample", "jdk.ObjectAllocationInNewTLAB",
                "profiler.Malloc")) {
            Matcher m = Pattern.compile(Pattern.quote(event) + "\\s+(\\d+)").matcher(r.out());
            check(m.find() && Long.parseLong(m.group(1)) > 0, event + " in the recording: " + r.out());
            // one slow call; on a busy machine perhaps a fast one the workload measured at 100 ms too
            if (event.equals("jdk.MethodTrace"))
                check(Long.parseLong(m.group(1)) <= slowMeasured, "one slow call (the workload measured " + slowMeasured
                        + " of 100 ms or more): " + r.out());
        }
    }

    static void options() throws Exception {
        // two targets, each its threshold: every call of spin over 100us (all of them) and handle's slow one
        Path file = IntegrationTest.work.resolve("two.collapsed");
        String out = workload("start,trace=TraceWorkload.spin(J)V:100us,trace=" + HANDLE + ":100ms,file=" + file, "");
        long slowMeasured = measuredAtLeast(out, 99_000_000L).size();
        Map<String, Long> stacks = IntegrationTest.readCollapsed(file);
        long spins = 0, handles = 0;
        for (var e : stacks.entrySet()) {
            if (e.getKey().endsWith(";TraceWorkload.spin")) spins += e.getValue();
            if (e.getKey().endsWith(";" + HANDLE)) handles += e.getValue();
        }
        check(spins == 10 && handles >= 1 && handles <= slowMeasured, "10 spins and 1 slow handle expected (the "
                + "workload measured " + slowMeasured + " calls of 100 ms or more): " + stacks);
        // a pattern and no threshold: every call of every TraceWorkload method named s*
        file = IntegrationTest.work.resolve("pattern.collapsed");
        workload("start,trace=TraceWorkload.s*,file=" + file, "");
        stacks = IntegrationTest.readCollapsed(file);
        long slowParts = stacks.entrySet().stream().filter(e -> e.getKey().endsWith(";TraceWorkload.slowPart"))
                .mapToLong(Map.Entry::getValue).sum();
        check(IntegrationTest.sum(stacks) == 12 && slowParts == 1, "serve, slowPart and the 10 spins: " + stacks);
        // a descriptor that matches nothing traces nothing
        file = IntegrationTest.work.resolve("wrong.collapsed");
        workload("start,trace=TraceWorkload.handle()V:0,file=" + file, "");
        check(!Files.readString(file).contains(HANDLE), "a wrong descriptor traced handle");
        for (String bad : List.of("trace=Handle", "trace=TraceWorkload.handle:fast", "trace=TraceWorkload.handle(I", "trace")) {
            IntegrationTest.Run run = IntegrationTest.runJava("start," + bad + ",file=x.collapsed", "TraceWorkload");
            check(run.exit() != 0 && run.err().contains("trace"), bad + " must be refused, naming trace: " + run.err());
        }
    }
}
