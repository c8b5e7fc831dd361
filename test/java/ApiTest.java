import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The ways in for a program that drives the profiler itself: the Java API (libprof.jar), async-
 * profiler's native interface, -javaagent and JMX, the C API from a native JVM host, LD_PRELOAD, and the
 * metrics read by Prometheus' own promtool. The programs under test (test/java/api, test/native/api_host.c)
 * assert on their own frames and print OK; this driver runs them and checks what they leave behind.
 * Usage: ApiTest <case> <jdk> <libprof.so> <test classes> <work> <libprof.jar> <api test classes> <api_host>
 */
public class ApiTest {
    static String jar, apiClasses, host;

    public static void main(String[] args) throws Exception {
        jar = args[5];
        apiClasses = args[6];
        host = args[7];
        IntegrationTest.runMain(args, test -> {
            switch (test) {
                case "java_api" -> javaApi();
                case "thread_filter" -> expectOk(java(List.of(), Map.of(), jar + ":" + apiClasses, "ApiSelf", "filter"));
                case "async_profiler" -> asyncProfiler();
                case "javaagent_jmx" -> javaagentJmx();
                case "c_host" -> cHost();
                case "agent_attach" -> agentAttach();
                case "ld_preload" -> ldPreload();
                case "loop_collapsed" -> loopCollapsed();
                case "loop_jfr_rolling" -> loopJfrRolling();
                case "jar_planted" -> jarPlanted();
                case "xcheck_jni" -> xcheckJni();
                case "spans" -> spans();
                default -> throw new IllegalArgumentException("unknown test " + test);
            }
        });
    }

    static void check(boolean ok, String what) {
        IntegrationTest.check(ok, what);
    }

    static void expectOk(IntegrationTest.Run run) {
        check(run.exit() == 0 && run.out().contains("OK"), "exit " + run.exit() + "\n" + run.out() + run.err());
        check(!run.err().contains("[libprof]"), "no libprof message on stderr:\n" + run.err());
    }

    /** Percent of the samples of the thread whose Java root is 'root' that are in 'frame' (JIT compiler
     *  threads take a share of the whole that grows with the machine's load: they are left out, and so are
     *  the profiler's own API calls and the MBean server's start). */
    static long mainShare(java.util.Map<String, Long> stacks, String frame, String root) {
        // Samples inside the profiler's API calls (a dump through JMX runs on main) and the MBean server's
        // start are not the workload's.
        long api = stacks.entrySet().stream().filter(e -> e.getKey().contains(";dev/libprof/Profiler.")
                || e.getKey().contains("ManagementFactory.getPlatformMBeanServer"))
                .mapToLong(java.util.Map.Entry::getValue).sum();
        long in = IntegrationTest.sumContaining(stacks, frame), all = IntegrationTest.sumContaining(stacks, root) - api;
        System.out.println(frame + ": " + in + " of " + all + " samples of " + root);
        check(all > 0, "no samples of " + root);
        return 100 * in / all;
    }

    static IntegrationTest.Run run(List<String> cmd, Map<String, String> env) throws Exception {
        Path out = Files.createTempFile(IntegrationTest.work, "stdout", ".txt");
        Path err = Files.createTempFile(IntegrationTest.work, "stderr", ".txt");
        ProcessBuilder b = new ProcessBuilder(cmd).directory(IntegrationTest.work.toFile()).redirectOutput(out.toFile())
                .redirectError(err.toFile());
        b.environment().putAll(env);
        Process p = b.start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("did not finish in 120 s: " + cmd);
        }
        IntegrationTest.Run r = new IntegrationTest.Run(p.exitValue(), Files.readString(out), Files.readString(err));
        String shown = r.out().strip();
        System.out.println("$ " + env + " " + String.join(" ", cmd) + "\n  exit " + r.exit() + "\n  stdout: "
                + (shown.length() > 2000 ? shown.substring(0, 2000) + " ..." : shown) + "\n  stderr: " + r.err().strip().replace("\n", "\n          "));
        IntegrationTest.noCrashReports();
        return r;
    }

    static IntegrationTest.Run java(List<String> jvmOptions, Map<String, String> env, String classpath, String... main)
            throws Exception {
        List<String> cmd = new ArrayList<>(List.of(IntegrationTest.javaHome + "/bin/java"));
        cmd.addAll(jvmOptions);
        cmd.addAll(List.of("-cp", classpath));
        cmd.addAll(List.of(main));
        return run(cmd, env);
    }

    /** async-profiler's Java API (AsyncSelf); then the recording its dump,jfr wrote mid-session, which jfr reads. */
    static void asyncProfiler() throws Exception {
        expectOk(java(List.of(), Map.of(), apiClasses, "AsyncSelf", IntegrationTest.agent));
        IntegrationTest.Run jfr = run(List.of(IntegrationTest.javaHome + "/bin/jfr", "print", "--events",
                "jdk.ExecutionSample", IntegrationTest.work.resolve("dumped.jfr").toString()), Map.of());
        check(jfr.exit() == 0 && jfr.out().contains("ApiSelf.burnSelf"), "jfr reads the recording dump,jfr wrote");
    }

    /** The Java API end to end (ApiSelf self); then its files: a JFR recording jfr reads, metrics promtool reads. */
    static void javaApi() throws Exception {
        expectOk(java(List.of(), Map.of(), jar + ":" + apiClasses, "ApiSelf", "self", IntegrationTest.work.toString()));
        IntegrationTest.Run jfr = run(List.of(IntegrationTest.javaHome + "/bin/jfr", "print", "--events",
                "jdk.ExecutionSample", IntegrationTest.work.resolve("api.jfr").toString()), Map.of());
        check(jfr.exit() == 0 && jfr.out().contains("ApiSelf.burnSelf"), "jfr reads the API's recording");
        IntegrationTest.Run prom = run(List.of("sh", "-c", "promtool check metrics < metrics.txt"), Map.of());
        check(prom.exit() == 0, "promtool check metrics: exit " + prom.exit() + "\n" + prom.out() + prom.err());
        check(Files.readString(IntegrationTest.work.resolve("metrics.txt")).contains("libprof_dropped_samples_total{reason="),
                "drops by reason in the metrics");
    }

    /** The Java API end to end under -Xcheck:jni: its natives stay within the local references they plan for. */
    static void xcheckJni() throws Exception {
        IntegrationTest.Run r = java(List.of("-Xcheck:jni"), Map.of(), jar + ":" + apiClasses, "ApiSelf", "self",
                IntegrationTest.work.toString());
        check(r.exit() == 0 && r.out().contains("OK"), "exit " + r.exit() + "\n" + r.out() + r.err());
        check(!(r.out() + r.err()).contains("JNI local refs"), "-Xcheck:jni warns about local references:\n" + r.out() + r.err());
    }

    /**
     * libprof.jar's extraction against another local user (nobody, plant_race) who watches a shared sticky
     * temporary directory and plants a file wherever the jar's library is deleted or a directory of its
     * appears: eight JVMs (seven through getInstance, one through -javaagent) all load the library, from a file
     * only its owner may read, and leave nothing of theirs behind.
     */
    static void jarPlanted() throws Exception {
        Path shared = IntegrationTest.work.resolve("shared-tmp");
        Files.createDirectories(shared);
        try (var old = Files.list(shared)) {
            for (Path p : (Iterable<Path>) old::iterator) run(List.of("rm", "-rf", p.toString()), Map.of());
        }
        run(List.of("chmod", "1777", shared.toString()), Map.of());
        Path planterOut = IntegrationTest.work.resolve("planter.out");
        Process planter = new ProcessBuilder("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                Path.of(IntegrationTest.agent).getParent().getParent().resolve("bin/plant_race").toString(),
                shared.toString(), "100").redirectErrorStream(true).redirectOutput(planterOut.toFile()).start();
        try {
            for (int i = 0; i < 100 && !Files.readString(planterOut).contains("watching"); i++) Thread.sleep(50);
            check(Files.readString(planterOut).contains("watching"), "the planter did not start: "
                    + Files.readString(planterOut));
            int loaded = 0;
            for (int i = 0; i < 8; i++) {
                List<String> options = new ArrayList<>(List.of("-Djava.io.tmpdir=" + shared));
                if (i == 7) options.add("-javaagent:" + jar + "=start,event=ctimer,interval=10ms,file="
                        + IntegrationTest.work.resolve("planted.collapsed"));
                IntegrationTest.Run r = java(options, Map.of(), jar + ":" + apiClasses, "JarLoad");
                if (r.exit() != 0 || !r.out().contains("OK")) continue;
                loaded++;
                if (i == 7) continue;   /* -javaagent: the library came from the jar's agent, mapped the same */
                java.util.regex.Matcher m = java.util.regex.Pattern.compile("mapped (\\S+).* mode (\\S+)").matcher(r.out());
                check(m.find(), "no mapping of the extracted library: " + r.out());
                check(m.group(1).startsWith(shared.toString() + "/libprof-") && m.group(1).endsWith("/libprof.so"),
                        "not extracted into a directory of its own: " + m.group(1));
                check(m.group(2).equals("rw-------"), "the extracted library's mode is " + m.group(2) + ", not owner-only");
            }
            String planted = Files.readString(planterOut);
            System.out.println("planter:\n  " + planted.strip().replace("\n", "\n  "));
            check(loaded == 8, "the planter made " + (8 - loaded) + " of 8 JVMs fail to load libprof.jar's library");
            check(planted.contains(" mode 700: plant inside Permission denied"), "the planter saw no owner-only directory");
            check(!planted.contains("plant inside done"), "the planter put a file into the jar's directory");
            try (var left = Files.list(shared)) {
                List<Path> ours = left.filter(p -> {
                    try {
                        return Files.getOwner(p).getName().equals(System.getProperty("user.name"));
                    } catch (IOException e) {
                        return false;
                    }
                }).toList();
                check(ours.isEmpty(), "extracted files left behind: " + ours);
            }
        } finally {
            planter.destroyForcibly();
        }
    }

    /** -javaagent:libprof.jar=start,...: the session runs from premain, the MBean answers, the exit writes the file. */
    static void javaagentJmx() throws Exception {
        Path out = IntegrationTest.work.resolve("agent.collapsed");
        Files.deleteIfExists(out);
        expectOk(java(List.of("-javaagent:" + jar + "=start,event=ctimer,interval=1ms,file=" + out), Map.of(),
                apiClasses, "ApiSelf", "jmx", IntegrationTest.work.toString()));
        var stacks = IntegrationTest.readCollapsed(out);
        check(mainShare(stacks, "ApiSelf.burnSelf", "ApiSelf.main") >= 70, "burnSelf in >= 70% of main's samples");
        // A bad command refuses the start of the JVM, naming the option.
        IntegrationTest.Run bad = java(List.of("-javaagent:" + jar + "=start,interval=fast"), Map.of(), apiClasses,
                "ApiBurn", "10");
        check(bad.exit() != 0 && bad.err().contains("interval=fast"), "a bad -javaagent command stops the JVM");
    }

    /** libprof.jar loaded into a running JVM as a Java agent (Agent-Class): its argument starts a session. */
    static void agentAttach() throws Exception {
        Path out = IntegrationTest.work.resolve("attached.collapsed");
        Files.deleteIfExists(out);
        Path log = IntegrationTest.work.resolve("target.out");
        Process target = new ProcessBuilder(IntegrationTest.javaHome + "/bin/java", "-cp", IntegrationTest.classes,
                "ApiBurn", "15000").redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            // Attaching before the JVM handles SIGQUIT would kill it: wait until its main runs.
            for (int i = 0; i < 300 && !Files.readString(log).contains("ready"); i++) Thread.sleep(100);
            long t0 = System.nanoTime();
            var vm = com.sun.tools.attach.VirtualMachine.attach(String.valueOf(target.pid()));
            try {
                vm.loadAgent(jar, "start,event=ctimer,interval=1ms,file=" + out);
            } finally {
                vm.detach();
            }
            System.out.printf("attach and agentmain took %.1f s%n", (System.nanoTime() - t0) / 1e9);
            check(target.waitFor(60, TimeUnit.SECONDS), "the target did not finish");
        } finally {
            target.destroyForcibly();
        }
        System.out.println("target output: " + Files.readString(log));
        check(target.exitValue() == 0, "target exit " + target.exitValue());
        var stacks = IntegrationTest.readCollapsed(out);
        check(mainShare(stacks, "ApiBurn.burn", "ApiBurn.main") >= 70, "ApiBurn.burn in >= 70% of main's samples");
    }

    /** A native program creates the JVM and profiles it through libprof.h (test/native/api_host.c). */
    static void cHost() throws Exception {
        expectOk(run(List.of(host, IntegrationTest.classes), Map.of()));
    }

    /** LD_PRELOAD=libprof.so LIBPROF_COMMAND=...: the launcher's JVM runs the command as -agentpath would. */
    static void ldPreload() throws Exception {
        Path out = IntegrationTest.work.resolve("preload.collapsed");
        Files.deleteIfExists(out);
        IntegrationTest.Run r = java(List.of(), Map.of("LD_PRELOAD", IntegrationTest.agent, "LIBPROF_COMMAND",
                "start,event=ctimer,interval=1ms,file=" + out), IntegrationTest.classes, "ApiBurn", "1500");
        check(r.exit() == 0, "exit " + r.exit());
        var stacks = IntegrationTest.readCollapsed(out);
        check(mainShare(stacks, "ApiBurn.burn", "ApiBurn.main") >= 70, "ApiBurn.burn in >= 70% of main's samples");
        // async-profiler's variable name works the same.
        Files.deleteIfExists(out);
        r = java(List.of(), Map.of("LD_PRELOAD", IntegrationTest.agent, "ASPROF_COMMAND",
                "start,event=ctimer,interval=1ms,file=" + out), IntegrationTest.classes, "ApiBurn", "500");
        check(r.exit() == 0 && Files.exists(out), "ASPROF_COMMAND: a profile at " + out);
    }

    /** ApiBurn for 7 s under loop=2s, writing the files named 'pattern' into an empty directory, returned. */
    static Path runLoop(String pattern, Map<String, String> env) throws Exception {
        Path dir = Files.createDirectories(IntegrationTest.work.resolve("loop"));
        try (var old = Files.list(dir)) {
            for (Path f : old.toList()) Files.delete(f);
        }
        List<String> agentOptions = List.of("-agentpath:" + IntegrationTest.agent
                + "=start,event=ctimer,interval=1ms,loop=2s,file=" + dir + "/" + pattern);
        IntegrationTest.Run r = java(agentOptions, env, IntegrationTest.classes, "ApiBurn", "7000");
        check(r.exit() == 0, "exit " + r.exit());
        return dir;
    }

    /** loop=2s for 7 s: a complete profile for each of the 3 periods (and the exit's partial one), named by
     *  %n and an environment variable. */
    static void loopCollapsed() throws Exception {
        Path dir = runLoop("p-%{LOOP_TAG}-%n.collapsed", Map.of("LOOP_TAG", "tag7"));
        for (int n = 0; n < 3; n++) {
            var stacks = IntegrationTest.readCollapsed(dir.resolve("p-tag7-" + n + ".collapsed"));
            check(mainShare(stacks, "ApiBurn.burn", "ApiBurn.main") >= 70, "period " + n + ": ApiBurn.burn's share");
        }
        try (var files = Files.list(dir)) {
            long count = files.count();
            check(count >= 3 && count <= 4, "3 periods and at most the exit's partial one: " + count + " files");
        }
    }

    /** loop=2s with %n{2}: JFR recordings rotate over two names, each a complete recording jfr reads. */
    static void loopJfrRolling() throws Exception {
        Path dir = runLoop("p-%n{2}.jfr", Map.of());
        try (var files = Files.list(dir)) {
            List<String> names = files.map(f -> f.getFileName().toString()).sorted().toList();
            check(names.equals(List.of("p-0.jfr", "p-1.jfr")), "two rolling names: " + names);
        }
        for (String name : List.of("p-0.jfr", "p-1.jfr")) {
            IntegrationTest.Run jfr = run(List.of(IntegrationTest.javaHome + "/bin/jfr", "print", "--events",
                    "jdk.ExecutionSample", dir.resolve(name).toString()), Map.of());
            check(jfr.exit() == 0 && jfr.out().contains("ApiBurn.burn"), name + ": jfr reads samples of ApiBurn.burn");
        }
    }

    /** Spans carry the samples taken inside them: SpanSelf alternates "alpha" spans around alphaWork() and
     *  "beta" spans around betaWork() on one thread; every sample of that thread inside a span of one kind is
     *  in that kind's work. Idle spans: ended only when sampled (mostly dropped), or always (all recorded). */
    static void spans() throws Exception {
        Path file = IntegrationTest.work.resolve("spans.jfr");
        expectOk(java(List.of(), Map.of(), jar + ":" + apiClasses, "SpanSelf", file.toString()));
        record SpanEvent(String tag, long tid, java.time.Instant from, java.time.Instant to) {}
        List<SpanEvent> spans = new ArrayList<>();
        List<jdk.jfr.consumer.RecordedEvent> samples = new ArrayList<>();
        try (var rf = new jdk.jfr.consumer.RecordingFile(file)) {
            while (rf.hasMoreEvents()) {
                var e = rf.readEvent();
                String type = e.getEventType().getName();
                if (type.equals("profiler.Span"))
                    spans.add(new SpanEvent(e.getString("tag"), e.getThread("eventThread").getOSThreadId(),
                            e.getStartTime(), e.getEndTime()));
                else if (type.equals("jdk.ExecutionSample")) samples.add(e);
            }
        }
        Map<String, Long> count = new java.util.HashMap<>();
        for (SpanEvent s : spans) count.merge(String.valueOf(s.tag()), 1L, Long::sum);
        System.out.println("spans by tag: " + count);
        check(count.getOrDefault("alpha", 0L) > 0 && count.getOrDefault("beta", 0L) > 0, "alpha and beta spans recorded: " + count);
        check(count.getOrDefault("idleAlways", 0L) == 20, "every idleAlways span recorded: " + count);
        check(count.getOrDefault("idleSampled", 0L) < 20, "idle spans without samples are not recorded by end(): " + count);
        check(!count.containsKey("afterStop"), "no span after the recording stopped: " + count);
        for (String tag : List.of("alpha", "beta")) {
            String own = "SpanSelf." + tag + "Work", other = "SpanSelf." + (tag.equals("alpha") ? "beta" : "alpha") + "Work";
            long inside = 0, mine = 0, theirs = 0;
            for (var sample : samples) {
                var thread = sample.getThread("sampledThread");
                if (thread == null) continue;
                boolean in = spans.stream().anyMatch(s -> tag.equals(s.tag()) && s.tid() == thread.getOSThreadId()
                        && !sample.getStartTime().isBefore(s.from()) && !sample.getStartTime().isAfter(s.to()));
                if (!in) continue;
                inside++;
                String frames = sample.getStackTrace().getFrames().stream()
                        .map(f -> f.getMethod().getType().getName() + "." + f.getMethod().getName())
                        .collect(java.util.stream.Collectors.joining(";"));
                if (frames.contains(own)) mine++;
                if (frames.contains(other)) theirs++;
            }
            System.out.println(tag + " spans: " + inside + " samples inside, " + mine + " in " + own + ", " + theirs + " in " + other);
            check(inside >= 20, tag + " spans hold samples: " + inside);
            check(mine * 100 >= inside * 90, tag + " spans' samples are " + own + ": " + mine + " of " + inside);
            check(theirs == 0, tag + " spans hold no sample of " + other + ": " + theirs);
            inSpans.put(tag, inside);
        }
        spansConverted(file, count, inSpans);
    }

    static final Map<String, Long> inSpans = new java.util.HashMap<>();

    /** jfrconv (beside the library: build/bin) on the same recording: a Firefox marker per span, and pprof's
     *  span label on exactly the samples the JDK's reader finds inside each kind (read by go tool pprof). */
    static void spansConverted(Path jfr, Map<String, Long> spans, Map<String, Long> inside) throws Exception {
        String jfrconv = Path.of(IntegrationTest.agent).getParent().getParent().resolve("bin/jfrconv").toString();
        Path gecko = IntegrationTest.work.resolve("spans.gecko.json"), pprof = IntegrationTest.work.resolve("spans.pb.gz");
        check(run(List.of(jfrconv, "-o", "gecko", jfr.toString(), gecko.toString()), Map.of()).exit() == 0, "jfrconv -o gecko");
        String json = Files.readString(gecko);
        for (String tag : List.of("alpha", "beta")) {
            long markers = json.split("\\{\"type\":\"Span\",\"tid\":\\d+,\"tag\":\"" + tag + "\"\\}", -1).length - 1;
            check(markers == spans.get(tag), tag + ": a Firefox marker per span: " + markers + " of " + spans.get(tag));
        }
        check(run(List.of(jfrconv, "-o", "pprof", jfr.toString(), pprof.toString()), Map.of()).exit() == 0, "jfrconv -o pprof");
        IntegrationTest.Run tags = run(List.of("go", "tool", "pprof", "-tags", pprof.toString()), Map.of());
        check(tags.exit() == 0, "go tool pprof -tags (go is a test dependency, as for browser.viewers): " + tags.err());
        for (String tag : List.of("alpha", "beta")) {
            var m = java.util.regex.Pattern.compile("(\\d+)(?:\\.\\d+)? \\([ 0-9.]+%\\): " + tag + "\\b").matcher(tags.out());
            check(m.find(), "pprof's span tags name " + tag + ":\n" + tags.out());
            long labelled = Long.parseLong(m.group(1));
            check(labelled == inside.get(tag), tag + ": pprof samples labelled " + labelled + ", inside its spans " + inside.get(tag));
        }
    }
}
